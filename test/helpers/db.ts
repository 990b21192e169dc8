import { Client } from 'pg';
import { randomBytes } from 'node:crypto';
import { createDb, type Db } from '../../db/knex';

export interface TestDatabase {
  url: string;
  name: string;
  db: Db;
  drop(): Promise<void>;
}

async function admin<T>(fn: (c: Client) => Promise<T>): Promise<T> {
  const c = new Client({ connectionString: process.env.FSS_TEST_ADMIN_URL });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** A fresh, migrated database cloned from the run's template (fast: a file copy). */
export async function createTestDatabase(): Promise<TestDatabase> {
  const template = process.env.FSS_TEST_TEMPLATE;
  if (!template || !process.env.FSS_TEST_ADMIN_URL) throw new Error('test globalSetup did not run');
  const name = `fss_t_${randomBytes(6).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE ${name} TEMPLATE ${template}`));
  const u = new URL(process.env.FSS_TEST_ADMIN_URL);
  u.pathname = `/${name}`;
  const url = u.toString();
  const db = createDb(url, 20);
  return {
    url,
    name,
    db,
    async drop() {
      await db.destroy();
      await admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}
