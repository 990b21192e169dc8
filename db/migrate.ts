import { createDb } from './knex';
import { migrationSource } from './migrations';

export const migrationConfig = { migrationSource, tableName: 'knex_migrations' };

/** Bring the database at `databaseUrl` to the latest schema. */
export async function migrateLatest(databaseUrl: string): Promise<void> {
  const db = createDb(databaseUrl, 2);
  try {
    await db.migrate.latest(migrationConfig);
  } finally {
    await db.destroy();
  }
}
