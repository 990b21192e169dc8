import type { Config } from '../core/config';
import type { Db } from '../db/knex';
import type { OutboxPort } from '../temporal/outbox-port';

/** What a use case may reach. The API's deps and the worker's deps both satisfy it. */
export interface ServiceDeps {
  db: Db;
  config: Config;
  outbox: OutboxPort;
}
