import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Runtime, DefaultLogger, Worker, type WorkerOptions } from '@temporalio/worker';
import { temporal } from '@temporalio/proto';
import { findTestServer } from '../../temporal/binaries';
import { searchAttributeKeys } from '../../temporal/search-attributes';

let runtimeInstalled = false;
function quietRuntime(): void {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  try {
    Runtime.install({
      logger: new DefaultLogger('WARN'),
      telemetryOptions: { logging: { filter: { core: 'ERROR', other: 'ERROR' }, forward: {} } },
    });
  } catch {
    // already installed by another helper in this process
  }
}

/**
 * The time-skipping test server from the installed binary (never downloaded), with our search
 * attributes registered (workflows started with TeamId, ContactId, … are accepted).
 */
export async function createTimeSkippingEnv(): Promise<TestWorkflowEnvironment> {
  quietRuntime();
  const env = await TestWorkflowEnvironment.createTimeSkipping({
    server: { executable: { type: 'existing-path', path: findTestServer() } },
  });
  await env.connection.operatorService.addSearchAttributes({
    namespace: env.namespace ?? 'default',
    searchAttributes: Object.fromEntries(
      searchAttributeKeys().map((k) => [k.name, temporal.api.enums.v1.IndexedValueType[`INDEXED_VALUE_TYPE_${k.type}`]]),
    ),
  });
  return env;
}

/** A local dev server (the real `temporal` CLI) with our search attributes: for tests that list/query workflows. */
export async function createLocalEnv(): Promise<TestWorkflowEnvironment> {
  quietRuntime();
  const { findTemporalCli } = await import('../../temporal/binaries');
  return TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'existing-path', path: findTemporalCli() },
      searchAttributes: searchAttributeKeys(),
      extraArgs: ['--log-level', 'error'],
    },
  });
}

/** The workflow bundle built once by the jest globalSetup. */
export function workflowBundle(): { codePath: string } {
  const codePath = process.env.FSS_TEST_WORKFLOW_BUNDLE;
  if (!codePath) throw new Error('test globalSetup did not build the workflow bundle');
  return { codePath };
}

/** Create a worker on the test env with chosen activities (not started). */
export async function createTestWorker(
  env: TestWorkflowEnvironment,
  activities: object,
  options: Partial<WorkerOptions> = {},
): Promise<Worker> {
  return Worker.create({
    connection: env.nativeConnection,
    namespace: env.namespace ?? 'default',
    taskQueue: 'fss',
    workflowBundle: workflowBundle(),
    activities,
    ...options,
  });
}

/** Run `fn` while a worker with `activities` polls the task queue. */
export async function withWorker<T>(
  env: TestWorkflowEnvironment,
  activities: object,
  fn: (worker: Worker) => Promise<T>,
  options: Partial<WorkerOptions> = {},
): Promise<T> {
  const worker = await createTestWorker(env, activities, options);
  return worker.runUntil(fn(worker));
}

/** Wait until the outbox started a workflow (describe answers). */
export async function waitStarted(env: TestWorkflowEnvironment, workflowId: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    try {
      await env.client.workflow.getHandle(workflowId).describe();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  throw new Error(`${workflowId} was never started`);
}
