import knexFactory, { Knex } from 'knex';
import pg from 'pg';

// Return timestamps as JS Dates and bigint counts as numbers (counts never exceed 2^53 here).
pg.types.setTypeParser(20, (v: string) => Number(v));
// `date` columns stay as YYYY-MM-DD strings; no timezone shifting.
pg.types.setTypeParser(1082, (v: string) => v);

export type Db = Knex;
export type Trx = Knex.Transaction;
/** A knex instance or an open transaction: repositories accept either. */
export type Executor = Knex | Knex.Transaction;

/**
 * A knex pool. With `budgetMs` (the API's DATABASE_BUDGET_MS), nothing waits on PostgreSQL longer
 * than that: a new connection, a pooled one, and each statement (pg's client-side query_timeout,
 * which also fires when the server is frozen or the network is partitioned). Without it
 * (the worker, migrations, tools) a connection is awaited 10 s and statements run to completion.
 */
export function createDb(url: string, poolMax = 10, opts: { budgetMs?: number } = {}): Db {
  const budget = opts.budgetMs;
  return knexFactory({
    client: 'pg',
    connection: {
      connectionString: url,
      application_name: 'fss',
      ...(budget ? { connectionTimeoutMillis: budget, query_timeout: budget } : {}),
    },
    pool: { min: 0, max: poolMax, ...(budget ? { createTimeoutMillis: budget } : {}) },
    acquireConnectionTimeout: budget ?? 10_000,
  });
}
