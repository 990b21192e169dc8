import { Client } from '@temporalio/client';
import { Runtime, Worker } from '@temporalio/worker';
import { createActivities } from '../activities';
import { buildWorkerDeps } from '../activities/deps';
import { webhookFirstAttempt } from '../activities/webhooks/first-attempt';
import { exitOnProblem, loadConfigOrExit, requireDatabaseUrl, requireProductionSending } from '../core/config';
import { productionSmsProblem } from '../services/sequences/sms-readiness';
import { logger } from '../core/logger';
import { createDb } from '../db/knex';
import { connectionOptions } from '../temporal/connection';
import { OutboxStarter } from '../temporal/outbox';
import { startRelayLoop } from '../temporal/relay-loop';
import { workflowCode } from '../temporal/workflow-code';
import { ensureMaintenanceSchedules } from '../services/maintenance/schedules';
import { retryUntil } from '../core/retry';
import { serveMetrics } from '../core/metrics';
import { registerDatabaseGauges } from '../services/health/gauges';
import { connectWorkerWhenReady } from '../temporal/worker-connection';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  requireProductionSending(config);
  const db = createDb(requireDatabaseUrl(config), config.DATABASE_POOL_MAX);
  // Before Temporal: a production worker that would write SMS to files does not start.
  exitOnProblem(await productionSmsProblem({ db, config }));
  // Metrics (docs/operators.md "Metrics"): ours on METRICS_PORT, the SDK's own on TEMPORAL_METRICS_PORT.
  if (config.TEMPORAL_METRICS_PORT) {
    Runtime.install({
      telemetryOptions: { metrics: { prometheus: { bindAddress: `${config.METRICS_HOST}:${config.TEMPORAL_METRICS_PORT}` } } },
    });
  }
  let metrics: { close(): Promise<void> } | undefined;
  if (config.METRICS_PORT) {
    registerDatabaseGauges({ db }, {});
    metrics = await serveMetrics(config.METRICS_PORT, config.METRICS_HOST);
  }

  // A stop (SIGTERM, SIGINT) from here on: whatever the worker is waiting for ends, and the process
  // with it. Our handlers come first: while a try to reach Temporal is in flight, the SDK's runtime
  // also listens for these signals, and on its own it would swallow the first one.
  const stopping = new AbortController();
  const running: { stop?: () => void } = {}; // set once the worker runs
  const shutdown = () => {
    logger.info('worker shutting down');
    stopping.abort();
    running.stop?.();
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
  const closeAll = async () => {
    await metrics?.close();
    await db.destroy();
  };

  // Temporal away or stalled at start (a deploy restarting it): wait with backoff, logging once.
  logger.info({ address: config.TEMPORAL_ADDRESS }, 'waiting for Temporal');
  const connection = await connectWorkerWhenReady(
    { ...connectionOptions(config), apiKey: config.TEMPORAL_API_KEY },
    { signal: stopping.signal },
  ).catch((err: unknown) => {
    if (!stopping.signal.aborted) throw err;
    return null;
  });
  if (!connection) {
    logger.info('worker stopped before Temporal answered');
    await closeAll();
    // A try in flight cannot be cancelled: the SDK's native connect would hold the process until
    // Temporal answers or the connection breaks. Nothing else is left to finish.
    process.exit(0);
  }
  // The outbox's client shares the worker's connection, so its starts can be eager: the server
  // hands the first workflow task straight back to this worker.
  const client = new Client({ connection, namespace: config.TEMPORAL_NAMESPACE });
  const outbox = new OutboxStarter(db, async () => client, config.TEMPORAL_TASK_QUEUE, config.TEMPORAL_MAX_CONCURRENT_STARTS, {
    eager: true,
    leaseMs: config.OUTBOX_LEASE_MS,
  });
  const deps = buildWorkerDeps(config, db, outbox);
  // The prebuilt bundle when there is one (production), else the sources (dev, tests).
  const workflows = workflowCode(config.WORKFLOW_BUNDLE_PATH, __dirname);
  const worker = await Worker.create({
    connection,
    namespace: config.TEMPORAL_NAMESPACE,
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    ...workflows,
    activities: createActivities(deps),
    // Workflow tasks queued for this worker's cache wait this long for it before another worker
    // replays them: a burst of wake-ups (enrollments due at once) no longer times them out.
    stickyQueueScheduleToStartTimeout: config.TEMPORAL_STICKY_TIMEOUT_S * 1000,
  });
  // A webhook delivery's first attempt is made by the relay straight from its outbox row; only a
  // failure becomes a retry workflow (DESIGN.md §2, docs/webhooks.md "First attempt").
  outbox.setDirect('webhookDeliveryWorkflow', webhookFirstAttempt(deps));

  // The outbox relay: every workflow a commit asks for (OUTBOX_STARTS_FROM=worker, woken by the
  // API's NOTIFY), or only those whose start in the API did not happen (=api).
  const relay = await startRelayLoop(outbox, {
    databaseUrl: requireDatabaseUrl(config),
    minAgeMs: config.OUTBOX_STARTS_FROM === 'worker' ? 0 : 2000,
    idleMs: 1000,
  });
  // Periodic work runs as Temporal Schedules, one per entry of services/maintenance/tasks.ts,
  // visible (and pausable) on the UI's Schedules page; created here, idempotently, in the
  // background: a Temporal that stalls meanwhile is retried with backoff, never ends the process.
  void retryUntil(
    'Temporal (maintenance Schedules)',
    () => ensureMaintenanceSchedules({ client }, { taskQueue: config.TEMPORAL_TASK_QUEUE }),
    {
      attemptMs: 60_000,
      signal: stopping.signal,
    },
  ).then(
    (result) => logger.info({ created: result.created.length, updated: result.updated.length }, 'maintenance Schedules in place'),
    () => undefined, // the worker is shutting down
  );

  running.stop = () => {
    void relay.stop(); // no new starts for a worker that is draining
    if (worker.getState() === 'RUNNING') worker.shutdown(); // the SDK's own signal handler may have been first
  };
  const from = 'workflowBundle' in workflows ? workflows.workflowBundle.codePath : 'sources, bundled at start';
  logger.info({ taskQueue: config.TEMPORAL_TASK_QUEUE, workflows: from }, 'worker running');
  // A stop that came while the worker was being built: run it only to shut it down.
  await (stopping.signal.aborted ? worker.runUntil(Promise.resolve()) : worker.run());
  await relay.stop(); // also when the SDK stopped the worker on a signal before our handler ran
  await connection.close();
  await closeAll();
}

main().catch((err) => {
  logger.fatal({ err }, 'worker failed');
  process.exit(1);
});
