import fs from 'node:fs';
import path from 'node:path';
import { renderTablesFormatted } from '../../db/tables-gen';
import { useApiWorld } from '../helpers/world';

/**
 * db/tables.ts declares every table to Knex, so a query on a column that does not exist, or a value
 * of the wrong type, is a compile error. It must say what the migrations say: a migration that
 * changes a table without `npm run gen:tables` fails here, naming the difference.
 */
const w = useApiWorld({ app: false, team: false });

test('db/tables.ts is what the migrations produce (run `npm run gen:tables` after a migration)', async () => {
  const file = path.resolve(__dirname, '../../db/tables.ts');
  const expected = await renderTablesFormatted(w.tdb.db, file);
  const committed = fs.readFileSync(file, 'utf8');
  if (committed !== expected) {
    const a = committed.split('\n');
    const b = expected.split('\n');
    const at = a.findIndex((line, i) => line !== b[i]);
    throw new Error(`db/tables.ts differs from the migrations at line ${at + 1}:\n  committed: ${a[at]}\n  migrations: ${b[at]}`);
  }
  expect(committed).toContain('interface Tables');
});

test('every table the migrations create is declared', async () => {
  const { rows } = await w.tdb.db.raw<{ rows: { table_name: string }[] }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_name NOT LIKE 'knex_%'`,
  );
  const declared = fs.readFileSync(path.resolve(__dirname, '../../db/tables.ts'), 'utf8');
  const missing = rows.map((r) => r.table_name).filter((t) => !new RegExp(`^    ${t}: `, 'm').test(declared));
  expect(missing).toEqual([]);
  expect(rows.length).toBeGreaterThan(40);
});
