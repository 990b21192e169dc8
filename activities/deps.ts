import type { Config } from '../core/config';
import { createMailer } from '../core/mailer';
import { createSmsSender } from '../core/sms';
import { videoProviders } from '../core/video';
import type { Db } from '../db/knex';
import type { WorkerDeps } from '../services/deps';
import type { OutboxPort } from '../temporal/outbox-port';

/** What activities may reach: the worker's deps. Tests pass their own (a real SMTP server, a local HTTP receiver…). */
export type ActivityDeps = WorkerDeps;

/**
 * The worker's deps, built once per process (bin/worker.ts; the tests that run activities): the
 * video providers from config, and the senders of mail and SMS from config unless given.
 */
export function buildWorkerDeps<O extends OutboxPort>(
  config: Config,
  db: Db,
  outbox: O,
  senders: Partial<Pick<WorkerDeps, 'mailer' | 'sms'>> = {},
): WorkerDeps & { outbox: O } {
  return {
    db,
    config,
    outbox,
    mailer: senders.mailer ?? createMailer(config),
    sms: senders.sms ?? createSmsSender(config),
    video: videoProviders(config),
  };
}
