/**
 * The API's LISTEN waits (db/notice-waits.ts; docs/decisions.md "The booking answers the provider's
 * event") against the test PostgreSQL: a notification for the key wakes a wait; a wait that cannot
 * listen reads once and ends at once; a lost connection is made again by the next wait; close()
 * ends the waits under way. Every wait here has a deadline far past the test timeout, so a wait
 * that were not woken would fail the test.
 */
import { NoticeWaits } from '../../db/notice-waits';
import { freePort } from '../../core/ports';
import { createTestDatabase, type TestDatabase } from '../helpers/db';
import { eventually } from '../helpers/smtp';

const CHANNEL = 'fss_test_notices';
const NEVER = 600_000;
let tdb: TestDatabase;
let waits: NoticeWaits;
beforeAll(async () => {
  tdb = await createTestDatabase();
  waits = NoticeWaits.forDb(tdb.db, CHANNEL);
});
afterAll(async () => {
  await waits?.close();
  await tdb?.drop();
});

const notify = (key: string) => tdb.db.raw('select pg_notify(?, ?)', [CHANNEL, key]);

/** A read that finds nothing the first time (and then sends `first`), and `found` after it. */
function reader(first: () => Promise<unknown>, found = 'found') {
  let reads = 0;
  return {
    reads: () => reads,
    read: async () => {
      reads++;
      if (reads > 1) return found;
      await first();
      return undefined;
    },
  };
}

test('a notification for the key wakes the wait, which reads once more', async () => {
  const r = reader(() => notify('meeting-1'));
  await expect(waits.until('meeting-1', NEVER, r.read)).resolves.toBe('found');
  expect(r.reads()).toBe(2);
  expect(waits.waiting).toBe(0);
});

test('a row already there: one read, no wait', async () => {
  let reads = 0;
  await expect(waits.until('meeting-2', NEVER, async () => ++reads)).resolves.toBe(1);
  expect(reads).toBe(1);
});

test('the deadline ends a wait nothing wakes (another key notified meanwhile)', async () => {
  const r = reader(() => notify('someone-else'));
  await expect(waits.until('meeting-3', 200, r.read)).resolves.toBeUndefined();
  expect(r.reads()).toBe(1);
});

test('a lost LISTEN connection is made again by the next wait', async () => {
  expect(waits.connected).toBe(true);
  await tdb.db.raw("select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query like 'LISTEN%'");
  await eventually(() => !waits.connected, 'the connection seen lost');
  const r = reader(() => notify('meeting-4'));
  await expect(waits.until('meeting-4', NEVER, r.read)).resolves.toBe('found');
  expect(waits.connected).toBe(true);
});

test('a wait that cannot listen reads once and ends at once', async () => {
  const port = await freePort(); // nothing listens there
  const down = new NoticeWaits(() => ({ connectionString: `postgres://nobody@127.0.0.1:${port}/none` }), CHANNEL);
  let reads = 0;
  await expect(down.until('meeting-5', NEVER, async () => void reads++)).resolves.toBeUndefined();
  expect(reads).toBe(1);
  expect(down.connected).toBe(false);
  await down.close();
});

test('close() ends the waits under way (each reads once more)', async () => {
  const own = NoticeWaits.forDb(tdb.db, CHANNEL);
  const r = reader(async () => undefined, 'read at close');
  const waiting = own.until('meeting-6', NEVER, r.read);
  await eventually(() => r.reads() === 1, 'the first read');
  await own.close();
  await expect(waiting).resolves.toBe('read at close');
});
