/**
 * A worker in its own process, so that a test can SIGKILL it in the middle of a send.
 * Env: DATABASE_URL, TEMPORAL_ADDRESS, SMTP_URL, BASE_URL, FSS_TEST_WORKFLOW_BUNDLE.
 */
import { NativeConnection, Worker } from '@temporalio/worker';
import { createActivities } from '../../../activities';
import { buildWorkerDeps } from '../../../activities/deps';
import { parseConfig } from '../../../core/config';
import { createDb } from '../../../db/knex';
import { OutboxStarter } from '../../../temporal/outbox';

async function main(): Promise<void> {
  const config = parseConfig(process.env);
  const db = createDb(config.DATABASE_URL!, 5);
  const connection = await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS });
  const outbox = new OutboxStarter(
    db,
    async () => {
      throw new Error('no client in the child worker');
    },
    config.TEMPORAL_TASK_QUEUE,
  );
  const worker = await Worker.create({
    connection,
    namespace: 'default',
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    workflowBundle: { codePath: process.env.FSS_TEST_WORKFLOW_BUNDLE! },
    // No sticky queue: the time-skipping server never times out a dead worker's sticky tasks.
    maxCachedWorkflows: 0,
    activities: createActivities(buildWorkerDeps(config, db, outbox)),
  });
  process.send?.('ready');
  await worker.run();
}

void main();
