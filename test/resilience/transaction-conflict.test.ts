/**
 * A transaction PostgreSQL rolls back because it met a concurrent one (a deadlock): the request is
 * answered 503 with a short Retry-After in the documented error shape, not 500 (db/unavailable.ts
 * `isTransactionConflict`, api/http/errors-middleware.ts). The deadlock is a real one, made by two
 * transactions that lock two rows in opposite orders.
 */
import Koa from 'koa';
import type { AddressInfo } from 'node:net';
import { requestIdAndErrors } from '../../api/http/errors-middleware';
import { createTestDatabase, type TestDatabase } from '../helpers/db';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
  await tdb.db.schema.createTable('deadlock_rows', (t) => t.integer('id').primary());
  await tdb.db('deadlock_rows').insert([{ id: 1 }, { id: 2 }]);
});
afterAll(() => tdb?.drop());

/** Two transactions, each holding one row and then asking for the other's: PostgreSQL aborts one with 40P01. */
async function deadlockError(): Promise<unknown> {
  const { db } = tdb;
  let bothHold = () => {};
  const held = new Promise<void>((r) => {
    let n = 0;
    bothHold = () => void (++n === 2 && r());
  });
  const crossing = (first: number, second: number) =>
    db.transaction(async (trx) => {
      await trx('deadlock_rows').where({ id: first }).forUpdate();
      bothHold();
      await held;
      await trx('deadlock_rows').where({ id: second }).forUpdate();
    });
  const outcomes = await Promise.allSettled([crossing(1, 2), crossing(2, 1)]);
  const failed = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
  expect(failed).toHaveLength(1);
  return failed[0].reason;
}

test('a deadlock in a request is a 503 with Retry-After: 1 and the documented error body', async () => {
  const err = await deadlockError();
  expect((err as { code?: string }).code).toBe('40P01');
  const app = new Koa();
  app.use(requestIdAndErrors);
  app.use(() => {
    throw err;
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/x`);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('1');
    const body = (await res.json()) as { error: { code: string; message: string; request_id: string } };
    expect(body.error).toMatchObject({ code: 'service_unavailable', message: expect.stringContaining('nothing was saved') });
    expect(JSON.stringify(body)).not.toContain('deadlock_rows');
  } finally {
    server.close();
  }
});
