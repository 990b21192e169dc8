import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { allRoutes } from '../../api/routes';
import { isDashboardOnly, type RouteDef } from '../../api/http/route';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestDatabase, type TestDatabase } from '../helpers/db';
import { createTestTeam, type TestTeam } from '../helpers/fixtures';
import { http } from '../helpers/http';

/**
 * Bad input on every route in the route table: malformed JSON, the wrong content type, a 2 MB
 * body, unknown fields, wrong types, out-of-range pagination. Each gets the documented 4xx in the
 * documented error shape; none gets a 500.
 */
const routes = allRoutes();
const key = (r: RouteDef) => `${r.method.toUpperCase()} ${r.path}`;
const oauthStyle = (r: RouteDef) => r.path.startsWith('/api/oauth');

let tdb: TestDatabase;
let app: TestApp;
let team: TestTeam;

beforeAll(async () => {
  tdb = await createTestDatabase();
  app = await startTestApp(tdb.db);
  team = await createTestTeam(tdb.db);
  // Staff routes (`auth: {staff: true}`) take the same session: make its user staff so their input checks run.
  await tdb.db('users').where({ id: team.userId }).update({ is_staff: true });
});
afterAll(async () => {
  await app.close();
  await tdb.drop();
});

function tokenFor(r: RouteDef): string | undefined {
  if (r.auth === 'public') return undefined;
  if (isDashboardOnly(r.auth) || 'staff' in r.auth) return team.session;
  return team.apiKey;
}

function path(r: RouteDef): string {
  return r.path.replace(/:([A-Za-z0-9_]+)/g, () => randomUUID());
}

function expectClientError(res: { status: number; body: any }, r: RouteDef, status?: number, code?: string) {
  expect(res.status).toBeGreaterThanOrEqual(400);
  expect(res.status).toBeLessThan(500);
  if (status) expect(res.status).toBe(status);
  if (oauthStyle(r)) return;
  if (typeof res.body === 'object') {
    expect(typeof res.body.error.code).toBe('string');
    expect(typeof res.body.error.request_id).toBe('string');
    if (code) expect(res.body.error.code).toBe(code);
  }
}

const withBody = routes.filter((r) => r.body);
const withPaging = routes.filter((r) => r.query instanceof z.ZodObject && 'per_page' in (r.query as z.ZodObject).shape);

describe.each(withBody.map((r) => [key(r), r] as const))('body of %s', (_n, r) => {
  const json = (r.accepts ?? ['json']).includes('json');
  it('rejects malformed JSON with 400 invalid_request', async () => {
    if (!json) return;
    const res = await http(app.baseUrl, r.method, path(r), {
      token: tokenFor(r),
      raw: '{"a": ',
      headers: { 'content-type': 'application/json' },
    });
    expectClientError(res, r, 400, 'invalid_request');
  });
  it('rejects a non-JSON content type with 415', async () => {
    const res = await http(app.baseUrl, r.method, path(r), { token: tokenFor(r), raw: 'hello', headers: { 'content-type': 'text/plain' } });
    expectClientError(res, r, 415, 'unsupported_media_type');
  });
  it('rejects a 2 MB body with 413', async () => {
    const big = JSON.stringify({ blob: 'x'.repeat(2 * 1024 * 1024) });
    const res = await http(app.baseUrl, r.method, path(r), {
      token: tokenFor(r),
      raw: big,
      headers: { 'content-type': json ? 'application/json' : 'application/x-www-form-urlencoded' },
    });
    expectClientError(res, r, 413, 'payload_too_large');
  });
  it('rejects unknown fields and wrong types with 400', async () => {
    for (const body of [{ __unknown_field__: 1 }, [1, 2], { title: 12, name: false, email: 7, url: [], status: {} }]) {
      const res = await http(app.baseUrl, r.method, path(r), { token: tokenFor(r), body });
      expectClientError(res, r);
      if (!oauthStyle(r) && res.status === 400) expect(['validation_failed', 'invalid_request']).toContain(res.body.error.code);
    }
  });
});

describe.each(withPaging.map((r) => [key(r), r] as const))('paging of %s', (_n, r) => {
  it.each(['per_page=0', 'per_page=101', 'page=0', 'page=-1', 'per_page=abc', 'limit=1000'])(
    'rejects %s with 400 validation_failed',
    async (qs) => {
      const res = await http(app.baseUrl, 'get', `${path(r)}?${qs}`, { token: tokenFor(r) });
      expectClientError(res, r, 400, 'validation_failed');
      expect(res.body.error.details[0].path).toMatch(/^query\./);
    },
  );
});
