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

export function createDb(url: string, poolMax = 10): Db {
  return knexFactory({
    client: 'pg',
    connection: { connectionString: url, application_name: 'fss' },
    pool: { min: 0, max: poolMax },
    acquireConnectionTimeout: 10_000,
  });
}
