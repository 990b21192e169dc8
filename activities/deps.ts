import type { Config } from '../core/config';
import type { Mailer } from '../core/mailer';
import type { SmsSender } from '../core/sms';
import type { Db } from '../db/knex';
import type { OutboxPort } from '../temporal/outbox-port';

/** What activities may reach. Tests pass their own (a real SMTP server, a local HTTP receiver…). */
export interface ActivityDeps {
  db: Db;
  config: Config;
  mailer: Mailer;
  sms: SmsSender;
  outbox: OutboxPort;
}
