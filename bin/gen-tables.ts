/**
 * `npm run gen:tables`: rewrite db/tables.ts from the migrations. Migrates a scratch database on
 * the embedded PostgreSQL of the tests (or on DATABASE_URL's server), renders, and drops it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { ensureEmbeddedPostgres } from '../db/embedded';
import { createDb } from '../db/knex';
import { migrateLatest } from '../db/migrate';
import { renderTablesFormatted } from '../db/tables-gen';

const ROOT = path.resolve(__dirname, '..');

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function main(): Promise<void> {
  const pg = process.env.DATABASE_URL ? null : await ensureEmbeddedPostgres({ dataDir: path.join(ROOT, '.data'), name: 'test' });
  const adminUrl = pg ? pg.adminUrl : withDatabase(process.env.DATABASE_URL as string, 'postgres');
  const name = `fss_gen_tables_${process.pid}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
    await migrateLatest(withDatabase(adminUrl, name));
    const db = createDb(withDatabase(adminUrl, name), 1);
    const file = path.join(ROOT, 'db', 'tables.ts');
    try {
      fs.writeFileSync(file, await renderTablesFormatted(db, file));
    } finally {
      await db.destroy();
    }
    process.stdout.write(`wrote ${path.relative(ROOT, file)}\n`);
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
    await pg?.stop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
