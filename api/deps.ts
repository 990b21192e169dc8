import type { Config } from '../core/config';
import type { Db } from '../db/knex';
import type { OutboxStarter } from '../temporal/outbox';
import type { RateLimits } from './http/rate-limit';

/** Everything a handler or service may reach. Built once per process (api/app.ts). */
export interface AppDeps {
  db: Db;
  config: Config;
  outbox: OutboxStarter;
  rateLimits: RateLimits;
  /** Reports whether Temporal answers (for /healthz). */
  temporalHealthy(): Promise<boolean>;
}
