import { createMailer } from '../core/mailer';
import { createSmsSender } from '../core/sms';
import { videoProviders } from '../core/video';
import type { WorkerDeps } from '../services/deps';

/** What activities may reach: the worker's deps. Tests pass their own (a real SMTP server, a local HTTP receiver…). */
export type ActivityDeps = WorkerDeps;

/**
 * The worker's deps, built once per process (bin/worker.ts; the tests that run activities): the
 * video providers from config, and the senders of mail and SMS from config unless given.
 */
export function buildWorkerDeps<O extends WorkerDeps['outbox']>(
  config: WorkerDeps['config'],
  db: WorkerDeps['db'],
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
