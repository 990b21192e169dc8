import type { Config } from '../core/config';
import type { VideoProviders } from '../core/video';
import type { Mailer } from '../core/mailer';
import type { SmsSender } from '../core/sms';
import type { Db } from '../db/knex';
import type { OutboxPort } from '../temporal/outbox-port';

/** What a use case may reach. The API's deps and the worker's deps both satisfy it. */
export interface ServiceDeps {
  db: Db;
  config: Config;
  outbox: OutboxPort;
  /** The video providers, built once per process from config (core/video `videoProviders`). */
  video: VideoProviders;
}

/**
 * Waits for a notification by key (the API's one LISTEN connection, db/notice-waits.ts): `read` once
 * the wait is registered; when it finds nothing, once more after a notification for `key`, unless
 * `ms` pass first (then undefined). Never a polling loop.
 */
export interface NoticeWaitsPort {
  until<T>(key: string, ms: number, read: () => Promise<T | undefined>): Promise<T | undefined>;
}

/** What the worker's use cases reach besides: the senders of mail and SMS (activities pass theirs). */
export interface WorkerDeps extends ServiceDeps {
  mailer: Mailer;
  sms: SmsSender;
}
