import { NativeConnection, Worker } from '@temporalio/worker';
import { createActivities } from '../activities';
import { requireDatabaseUrl } from '../api/build-deps';
import { loadConfigOrExit } from '../core/config';
import { logger } from '../core/logger';
import { createMailer } from '../core/mailer';
import { createSmsSender } from '../core/sms';
import { createDb } from '../db/knex';
import { connectionOptions } from '../temporal/connection';
import { lazyClient } from '../temporal/lazy-client';
import { OutboxStarter } from '../temporal/outbox';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const db = createDb(requireDatabaseUrl(config), config.DATABASE_POOL_MAX);
  const temporal = lazyClient(config);
  const outbox = new OutboxStarter(db, temporal.get, config.TEMPORAL_TASK_QUEUE, config.TEMPORAL_MAX_CONCURRENT_STARTS);
  const connection = await NativeConnection.connect({ ...connectionOptions(config), apiKey: config.TEMPORAL_API_KEY });
  const worker = await Worker.create({
    connection,
    namespace: config.TEMPORAL_NAMESPACE,
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    workflowsPath: require.resolve('../workflows'),
    activities: createActivities({ db, config, mailer: createMailer(config), sms: createSmsSender(config), outbox }),
  });

  // The outbox relay: start every workflow whose fast-path start did not happen.
  let stopping = false;
  let lastSweep = 0;
  const relay = async () => {
    while (!stopping) {
      try {
        await outbox.relay();
        if (Date.now() - lastSweep > 60_000) {
          lastSweep = Date.now();
          // Rate-limit windows that ended over an hour ago.
          await db('rate_limits').where('expire', '<', Date.now() - 3600_000).delete();
        }
      } catch (err) {
        logger.warn({ err }, 'outbox relay pass failed');
      }
      await new Promise((r) => setTimeout(r, 1000));
    }
  };
  void relay();

  const shutdown = () => {
    stopping = true;
    logger.info('worker shutting down');
    worker.shutdown();
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
  logger.info({ taskQueue: config.TEMPORAL_TASK_QUEUE }, 'worker running');
  await worker.run();
  stopping = true; // also when the SDK stopped the worker on a signal before our handler ran
  await connection.close();
  await temporal.close();
  await db.destroy();
}

main().catch((err) => {
  logger.fatal({ err }, 'worker failed');
  process.exit(1);
});
