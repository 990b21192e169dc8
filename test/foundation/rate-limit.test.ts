import { startTestApp, type TestApp } from '../helpers/app';
import { createTestTeam } from '../helpers/fixtures';
import { client, http } from '../helpers/http';
import { describeWithRedis, startRedis, type TestRedis } from '../helpers/redis';
import { eventually } from '../helpers/smtp';
import { useApiWorld } from '../helpers/world';

/** Two API processes' worth of apps on one database share the counters in Postgres. */
let b: TestApp;

const env = { RATE_LIMIT_DISABLED: 'false', RATE_LIMIT_PUBLIC_PER_MINUTE: '5', RATE_LIMIT_SYNC_MS: '0' };
const w = useApiWorld({ team: false, env });
beforeAll(async () => {
  // A second instance with its own pool, as a second process would have.
  const { createDb } = await import('../../db/knex');
  b = await startTestApp(createDb(w.tdb.url, 5), { env });
  w.onTeardown(async () => {
    await b.close();
    await b.deps.db.destroy();
  });
});

it('counts a free team per hour across both instances, with headers on every response', async () => {
  const team = await createTestTeam(w.tdb.db, { plan: 'free' });
  const first = await client(w.app.baseUrl, team.apiKey).get('/api/v1/me');
  expect(first.status).toBe(200);
  expect(first.headers.get('ratelimit-limit')).toBe('100');
  expect(first.headers.get('ratelimit-remaining')).toBe('99');
  expect(Number(first.headers.get('ratelimit-reset'))).toBeGreaterThan(3500);
  const second = await client(b.baseUrl, team.apiKey).get('/api/v1/me');
  expect(second.headers.get('ratelimit-remaining')).toBe('98');
  // Use up the hour alternating between instances.
  for (let i = 0; i < 98; i++) {
    const res = await client(i % 2 ? w.app.baseUrl : b.baseUrl, team.apiKey).get('/api/v1/me');
    expect(res.status).toBe(200);
  }
  const limited = await client(w.app.baseUrl, team.apiKey).get('/api/v1/me');
  expect(limited.status).toBe(429);
  expect(limited.body.error.code).toBe('rate_limited');
  expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(limited.headers.get('ratelimit-remaining')).toBe('0');
  const alsoLimited = await client(b.baseUrl, team.apiKey).get('/api/v1/me');
  expect(alsoLimited.status).toBe(429);
});

it('answers with the stricter of the per-minute credential limit and the plan limit', async () => {
  const team = await createTestTeam(w.tdb.db, { plan: 'pro' });
  const res = await client(w.app.baseUrl, team.apiKey).get('/api/v1/me');
  // Pro: 1,000 an hour, API key: 1,000 a minute; both have 999 left, the minute window resets first.
  expect(res.headers.get('ratelimit-limit')).toBe('1000');
  expect(res.headers.get('ratelimit-remaining')).toBe('999');
  const enterprise = await createTestTeam(w.tdb.db, { plan: 'enterprise' });
  const e = await client(w.app.baseUrl, enterprise.apiKey).get('/api/v1/me');
  expect(e.headers.get('ratelimit-limit')).toBe('1000'); // unlimited plan: only the per-minute limit applies
  expect(Number(e.headers.get('ratelimit-reset'))).toBeLessThanOrEqual(60);
});

it('limits public requests (here: without a valid credential) per client IP, shared across instances', async () => {
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) statuses.push((await http(i % 2 ? w.app.baseUrl : b.baseUrl, 'get', '/api/v1/me')).status);
  expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
});

describe('batched counting (RATE_LIMIT_SYNC_MS > 0)', () => {
  it('still shares one count between instances, at most one interval late', async () => {
    const { createDb } = await import('../../db/knex');
    const env = { RATE_LIMIT_DISABLED: 'false', RATE_LIMIT_SYNC_MS: '100' };
    const c = await startTestApp(w.tdb.db, { env });
    const d = await startTestApp(createDb(w.tdb.url, 5), { env });
    try {
      const team = await createTestTeam(w.tdb.db, { plan: 'free' });
      const storedPoints = async () =>
        Number((await w.tdb.db('rate_limits').where('key', 'like', `plan:100:3600:${team.teamId}`).first())?.points ?? 0);
      for (let i = 0; i < 30; i++) expect((await client(c.baseUrl, team.apiKey).get('/api/v1/me')).status).toBe(200);
      // c pushes its increments within an interval (observed in the table); d's first request reads the shared total.
      await eventually(async () => (await storedPoints()) >= 30, "c's 30 increments in the table", 5_000);
      const seen = await client(d.baseUrl, team.apiKey).get('/api/v1/me');
      expect(seen.headers.get('ratelimit-remaining')).toBe('69');
      for (let i = 0; i < 69; i++) await client(i % 2 ? c.baseUrl : d.baseUrl, team.apiKey).get('/api/v1/me');
      await eventually(async () => (await storedPoints()) >= 100, 'both instances pushed: 100 in the table', 5_000);
      // c refuses once its view is refreshed, at most one interval (100 ms) late: polled, with a deadline.
      let over = await client(c.baseUrl, team.apiKey).get('/api/v1/me');
      for (const deadline = Date.now() + 2_000; over.status !== 429 && Date.now() < deadline;) {
        await new Promise((r) => setTimeout(r, 50));
        over = await client(c.baseUrl, team.apiKey).get('/api/v1/me');
      }
      expect(over.status).toBe(429);
      const stored = await w.tdb.db('rate_limits').where('key', 'like', `plan:100:3600:${team.teamId}`).first();
      expect(stored!.points).toBeGreaterThanOrEqual(100);
    } finally {
      await c.close();
      await d.close();
      await d.deps.db.destroy();
    }
  });
});

describeWithRedis('counters in Redis when REDIS_URL is set', () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it('shares one count between instances through Redis', async () => {
    const { createDb } = await import('../../db/knex');
    const env = { RATE_LIMIT_DISABLED: 'false', RATE_LIMIT_SYNC_MS: '0', REDIS_URL: redis.url };
    const c = await startTestApp(w.tdb.db, { env });
    const d = await startTestApp(createDb(w.tdb.url, 5), { env });
    try {
      const team = await createTestTeam(w.tdb.db, { plan: 'free' });
      expect((await client(c.baseUrl, team.apiKey).get('/api/v1/me')).headers.get('ratelimit-remaining')).toBe('99');
      expect((await client(d.baseUrl, team.apiKey).get('/api/v1/me')).headers.get('ratelimit-remaining')).toBe('98');
      // Nothing was counted in Postgres: the store is Redis.
      expect(await w.tdb.db('rate_limits').where('key', `plan:100:3600:${team.teamId}`).first()).toBeUndefined();
    } finally {
      await c.close();
      await d.close();
      await d.deps.db.destroy();
    }
  });
});
