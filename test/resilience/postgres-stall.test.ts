/**
 * PostgreSQL stalled (frozen, partitioned): the API answers 503 within its budget, in the
 * documented error shape with Retry-After, instead of hanging for the length of the stall; the
 * no-JS form post gets a page that sends the same answers again; it recovers when the stall ends.
 * The stall is a TCP proxy that stops forwarding (test/helpers/stall-proxy.ts), never a sleep.
 */
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestDatabase, type TestDatabase } from '../helpers/db';
import { createTestTeam } from '../helpers/fixtures';
import { http } from '../helpers/http';
import { startStallProxy, type StallProxy } from '../helpers/stall-proxy';
import { makeForm } from '../fixtures/forms';
import { createDb, type Db } from '../../db/knex';

const BUDGET_MS = 1000;

let tdb: TestDatabase;
let proxy: StallProxy;
let db: Db;
let app: TestApp;
let formId: string;

beforeAll(async () => {
  tdb = await createTestDatabase();
  const direct = new URL(tdb.url);
  proxy = await startStallProxy({ host: direct.hostname, port: Number(direct.port) });
  const proxied = new URL(tdb.url);
  proxied.host = proxy.address;
  db = createDb(proxied.toString(), 4, { budgetMs: BUDGET_MS });
  app = await startTestApp(db, { env: { DATABASE_BUDGET_MS: String(BUDGET_MS), MAX_IN_FLIGHT: '50' } });
  const team = await createTestTeam(tdb.db);
  formId = (await makeForm(tdb.db, team.teamId)).id;
});

afterAll(async () => {
  proxy?.resume();
  await app?.close();
  await db?.destroy();
  await proxy?.close();
  await tdb?.drop();
});

const submitJson = (email: string) =>
  http(app.baseUrl, 'post', `/api/forms/${formId}/submissions`, { body: { fields: { email, name: 'Ann' } } });
const submitForm = (raw: string) =>
  http(app.baseUrl, 'post', `/api/forms/${formId}/submissions`, {
    raw,
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
  });
const stored = async (email: string) =>
  Number((await tdb.db('submissions').whereRaw(`fields->>'email' = ?`, [email]).count({ n: '*' }).first())?.n);
const timed = async <T>(fn: () => Promise<T>): Promise<[T, number]> => {
  const started = performance.now();
  const result = await fn();
  return [result, performance.now() - started];
};

describe('PostgreSQL stalled', () => {
  it('answers 503 service_unavailable with Retry-After within the budget, then recovers and keeps what it accepted', async () => {
    expect((await submitJson('before@example.com')).status).toBe(201);
    proxy.stall();
    try {
      const [res, ms] = await timed(() => submitJson('during@example.com'));
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ error: { code: 'service_unavailable', message: expect.any(String), request_id: expect.any(String) } });
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      // A few budgets at most (the statement's, and the rollback's), never the stall's length.
      expect(ms).toBeLessThan(4 * BUDGET_MS);
      const [ready, readyMs] = await timed(() => http(app.baseUrl, 'get', '/readyz'));
      expect(ready.status).toBe(503);
      expect(ready.body).toEqual({ status: 'unready', postgres: 'down', temporal: 'down' });
      expect(readyMs).toBeLessThan(2000);
      expect((await http(app.baseUrl, 'get', '/livez')).body).toEqual({ status: 'ok' });
    } finally {
      proxy.resume();
    }
    const after = await submitJson('after@example.com');
    expect(after.status).toBe(201);
    expect(await stored('before@example.com')).toBe(1);
    expect(await stored('after@example.com')).toBe(1);
    expect((await http(app.baseUrl, 'get', '/readyz')).status).toBe(200);
  });

  it('gives the no-JS post a "try again" page holding every answer, which sends them once the database is back', async () => {
    proxy.stall();
    let page;
    try {
      page = await submitForm('fields%5Bemail%5D=nojs%40example.com&fields%5Bname%5D=Ann+%3CO%27Neil%3E&status=completed');
    } finally {
      proxy.resume();
    }
    expect(page.status).toBe(503);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.text).toContain('Your answers were not sent yet');
    const hidden = [...page.text.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)].map(([, n, v]) => [
      n.replace(/&#39;|&quot;|&lt;|&gt;|&amp;/g, unescape1),
      v.replace(/&#39;|&quot;|&lt;|&gt;|&amp;/g, unescape1),
    ]);
    expect(Object.fromEntries(hidden)).toEqual({
      'fields[email]': 'nojs@example.com',
      'fields[name]': "Ann <O'Neil>",
      status: 'completed',
    });
    // The button posts the same fields again: now they are confirmed. (The statement sent before
    // the stall reached the server too and completes after it: a second row, as the page warns.)
    const again = await submitForm(new URLSearchParams(hidden).toString());
    expect(again.status).toBe(200);
    expect(again.text).toContain('Thank you');
    expect(await stored('nojs@example.com')).toBeGreaterThanOrEqual(1);
  });

  it('answers 503 at once past MAX_IN_FLIGHT while requests wait on the stall', async () => {
    proxy.stall();
    try {
      const held = Array.from({ length: 50 }, (_, i) => submitJson(`held${i}@example.com`));
      while (app.inFlight() < 50) await new Promise((resolve) => setImmediate(resolve));
      // The 51st is refused by the bound (its own message and Retry-After), while the 50 still wait.
      const over = await submitJson('over@example.com');
      expect(over.status).toBe(503);
      expect(over.body.error).toMatchObject({ code: 'service_unavailable', message: expect.stringContaining('busy') });
      expect(over.headers.get('retry-after')).toBe('1');
      expect(app.inFlight()).toBe(50);
      expect((await Promise.all(held)).map((r) => r.status)).toEqual(Array(50).fill(503));
    } finally {
      proxy.resume();
    }
  });
});

function unescape1(entity: string): string {
  return ({ '&#39;': "'", '&quot;': '"', '&lt;': '<', '&gt;': '>', '&amp;': '&' } as Record<string, string>)[entity];
}
