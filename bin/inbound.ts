import { loadConfigOrExit, requireDatabaseUrl } from '../core/config';
import { logger } from '../core/logger';
import { createDb } from '../db/knex';
import { createInboundListener } from '../inbound/smtp-listener';
import { lazyClient } from '../temporal/lazy-client';
import { OutboxStarter } from '../temporal/outbox';

/** The inbound SMTP listener (its own process): bounces, complaints and replies to our mail. */
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const db = createDb(requireDatabaseUrl(config), config.DATABASE_POOL_MAX);
  const temporal = lazyClient(config);
  const outbox = new OutboxStarter(db, temporal.get, config.TEMPORAL_TASK_QUEUE, config.TEMPORAL_MAX_CONCURRENT_STARTS, {
    kick: config.OUTBOX_STARTS_FROM === 'worker' ? 'notify' : 'start',
  });
  const listener = createInboundListener({ db, outbox, config });
  const port = await listener.listen();
  logger.info({ port, domains: [config.MAIL_BOUNCE_DOMAIN, config.MAIL_REPLY_DOMAIN] }, 'inbound SMTP listening');
  const stop = () => {
    logger.info('inbound SMTP shutting down');
    void listener.close().then(() => db.destroy());
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((err) => {
  logger.fatal({ err }, 'inbound SMTP failed to start');
  process.exit(1);
});
