import { WorkflowIdReusePolicy, WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { SignalDefinition } from '@temporalio/common';
import { logger } from '../core/logger';
import type { WorkflowName, WorkflowStart } from './workflow-start';
import { toTypedSearchAttributes } from './search-attributes';

/** The outbox port's signals (temporal/outbox-port.ts): they go straight to Temporal, not through rows. */
type Connect = () => Promise<Client>;

/** Signal a workflow, starting it first when no run is open (its id is reused after a closed run). Throws when Temporal cannot be reached. */
export async function signalWithStart<K extends WorkflowName>(
  connect: Connect,
  defaultTaskQueue: string,
  start: WorkflowStart<K>,
  signal: SignalDefinition<[]>,
): Promise<void> {
  const client = await connect();
  await client.workflow.signalWithStart(start.workflowType, {
    workflowId: start.workflowId,
    taskQueue: start.taskQueue ?? defaultTaskQueue,
    args: start.args as never,
    signal,
    signalArgs: [],
    workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
    typedSearchAttributes: toTypedSearchAttributes(start.searchAttributes ?? {}),
    ...(start.memo ? { memo: start.memo } : {}),
  });
}

/** Whether the workflow has an open run. Throws when Temporal cannot be reached. */
export async function isRunning(connect: Connect, workflowId: string): Promise<boolean> {
  const client = await connect();
  try {
    return (await client.workflow.getHandle(workflowId).describe()).status.name === 'RUNNING';
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return false;
    throw err;
  }
}

/**
 * Best-effort signal to a running workflow, for use right after a commit. A lost signal must be
 * harmless: the workflow re-reads the database before acting. Failures are logged, never thrown.
 */
export async function signalBestEffort<Args extends any[]>(
  connect: Connect,
  workflowId: string,
  def: SignalDefinition<Args>,
  ...args: Args
): Promise<boolean> {
  try {
    const client = await connect();
    await client.workflow.getHandle(workflowId).signal(def, ...args);
    return true;
  } catch (err) {
    logger.debug({ err, workflowId, signal: def.name }, 'workflow signal not delivered');
    return false;
  }
}
