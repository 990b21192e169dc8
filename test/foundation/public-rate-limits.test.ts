import { http } from '../helpers/http';
import { publishedEmailForm, rateLimitedEnv } from '../helpers/rate-limited';
import { useApiWorld } from '../helpers/world';

/**
 * Each public bucket counts on its own (api/http/rate-limit.ts): pages, availability, submissions
 * and bookings per IP, submissions per form and bookings per page from all IPs, and the static
 * embed script not at all. Clients are told apart by X-Forwarded-For (TRUST_PROXY_HOPS=1).
 */
let ipSeq = 0;
/** A client IP no other test has used. */
const newIp = () => `198.51.100.${++ipSeq}`;

const LIMITS = { PUBLIC: 5, PAGES: 8, AVAILABILITY: 4, SUBMIT: 3, SUBMIT_PER_TARGET: 5 };

const w = useApiWorld({
  env: rateLimitedEnv({
    RATE_LIMIT_PUBLIC_PER_MINUTE: String(LIMITS.PUBLIC),
    RATE_LIMIT_PAGES_PER_MINUTE: String(LIMITS.PAGES),
    RATE_LIMIT_AVAILABILITY_PER_MINUTE: String(LIMITS.AVAILABILITY),
    RATE_LIMIT_SUBMIT_PER_MINUTE: String(LIMITS.SUBMIT),
    RATE_LIMIT_SUBMIT_PER_TARGET_PER_MINUTE: String(LIMITS.SUBMIT_PER_TARGET),
  }),
  // The per-form budget scales with the plan (PLAN_TARGET_SCALE): a free team has the base budget.
  team: { plan: 'free' },
});

const from = (ip: string, method: string, path: string, body?: unknown) =>
  http(w.app.baseUrl, method, path, { body, headers: { 'x-forwarded-for': ip } });

const publishedForm = (slug: string) => publishedEmailForm(w.app.baseUrl, w.team, slug);

async function statuses(n: number, call: (i: number) => Promise<{ status: number }>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await call(i)).status);
  return out;
}

const submit = (ip: string, slug: string, i: number) =>
  from(ip, 'post', `/api/forms/${slug}/submissions`, { fields: { email: `v${i}@example.com` } });

test('page views have their own high bucket: past the default limit, and without touching the other buckets', async () => {
  await publishedForm('rl-page');
  const ip = newIp();
  const pages = await statuses(LIMITS.PAGES + 1, () => from(ip, 'get', '/f/rl-page'));
  expect(pages).toEqual([...Array(LIMITS.PAGES).fill(200), 429]);
  // The same IP still has its whole default and availability buckets.
  const other = await from(ip, 'get', '/api/v1/me');
  expect([other.status, other.headers.get('ratelimit-limit'), other.headers.get('ratelimit-remaining')]).toEqual([
    401,
    String(LIMITS.PUBLIC),
    String(LIMITS.PUBLIC - 1),
  ]);
  const avail = await from(ip, 'get', '/api/calendar/availability');
  expect([avail.status, avail.headers.get('ratelimit-limit')]).toEqual([400, String(LIMITS.AVAILABILITY)]);
});

test('the embed script is not counted: it is static, with ETag and Cache-Control', async () => {
  const ip = newIp();
  const all = await statuses(LIMITS.PAGES * 3, () => from(ip, 'get', '/embed.js'));
  expect(new Set(all)).toEqual(new Set([200]));
  const res = await from(ip, 'get', '/embed.js');
  expect(res.headers.get('etag')).toBeTruthy();
  expect(res.headers.get('cache-control')).toMatch(/max-age=/);
  expect(res.headers.get('ratelimit-limit')).toBeNull();
  expect(
    (await http(w.app.baseUrl, 'get', '/embed.js', { headers: { 'x-forwarded-for': ip, 'if-none-match': res.headers.get('etag')! } }))
      .status,
  ).toBe(304);
});

test('availability has its own per-IP bucket', async () => {
  const ip = newIp();
  const q = `/api/calendar/availability?user_id=${w.team.userId}&team_id=${w.team.teamId}&date=2030-01-07`;
  const got = await statuses(LIMITS.AVAILABILITY + 1, () => from(ip, 'get', q));
  expect(got.slice(0, LIMITS.AVAILABILITY).every((s) => s === 200)).toBe(true);
  expect(got[LIMITS.AVAILABILITY]).toBe(429);
  expect((await from(ip, 'get', '/healthz')).status).not.toBe(429); // pages bucket
});

test('submissions: strict per IP; a visitor who hit it can still view pages', async () => {
  await publishedForm('rl-submit-ip');
  const ip = newIp();
  const got = await statuses(LIMITS.SUBMIT + 1, (i) => submit(ip, 'rl-submit-ip', i));
  expect(got).toEqual([...Array(LIMITS.SUBMIT).fill(201), 429]);
  const limited = await submit(ip, 'rl-submit-ip', 99);
  expect(limited.body.error.code).toBe('rate_limited');
  expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  expect((await from(ip, 'get', '/f/rl-submit-ip')).status).toBe(200);
});

test('submissions: a no-JS post over its address budget gets the page back with every answer, a 429 and Retry-After', async () => {
  await publishedForm('rl-submit-nojs');
  const ip = newIp();
  const got = await statuses(LIMITS.SUBMIT, (i) => submit(ip, 'rl-submit-nojs', i));
  expect(got).toEqual(Array(LIMITS.SUBMIT).fill(201));
  const res = await http(w.app.baseUrl, 'post', '/api/forms/rl-submit-nojs/submissions', {
    raw: 'status=completed&fields%5Bemail%5D=kept%40example.com',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': ip },
  });
  expect(res.status).toBe(429);
  expect(res.headers.get('content-type')).toContain('text/html');
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(res.text).toContain('Many answers came from your network');
  expect(res.text).toContain('value="kept@example.com"');
  expect(await w.tdb.db('submissions').whereRaw(`fields->>'email' = ?`, ['kept@example.com'])).toHaveLength(0);
  // JSON from the same address keeps the documented error shape.
  const json = await submit(ip, 'rl-submit-nojs', 98);
  expect([json.status, json.body.error.code]).toEqual([429, 'rate_limited']);
});

test('submissions: per form, across IPs; another form is not affected', async () => {
  await publishedForm('rl-form-a');
  await publishedForm('rl-form-b');
  const got = await statuses(LIMITS.SUBMIT_PER_TARGET + 1, (i) => submit(newIp(), 'rl-form-a', i));
  expect(got).toEqual([...Array(LIMITS.SUBMIT_PER_TARGET).fill(201), 429]);
  expect((await submit(newIp(), 'rl-form-b', 0)).status).toBe(201);
  // The headers show the stricter of the two limits.
  const h = (await submit(newIp(), 'rl-form-b', 1)).headers;
  expect([h.get('ratelimit-limit'), h.get('ratelimit-remaining')]).toEqual([String(LIMITS.SUBMIT), String(LIMITS.SUBMIT - 1)]);
});

test('bookings: strict per IP, and per booking target across IPs', async () => {
  const booking = (eventTypeId: string) => ({
    event_type_id: eventTypeId,
    start_time: '2030-01-07T10:00:00Z',
    end_time: '2030-01-07T10:30:00Z',
    timezone: 'UTC',
    name: 'Ada',
    email: 'ada@example.com',
  });
  const ip = newIp();
  const perIp = await statuses(LIMITS.SUBMIT + 1, () => from(ip, 'post', '/api/calendar/book', booking(crypto.randomUUID())));
  expect(perIp).toEqual([...Array(LIMITS.SUBMIT).fill(404), 429]); // unknown event types: 404 until the IP is cut off
  const target = crypto.randomUUID();
  const perTarget = await statuses(LIMITS.SUBMIT_PER_TARGET + 1, () => from(newIp(), 'post', '/api/calendar/book', booking(target)));
  expect(perTarget).toEqual([...Array(LIMITS.SUBMIT_PER_TARGET).fill(404), 429]);
  expect((await from(newIp(), 'post', '/api/calendar/book', booking(crypto.randomUUID()))).status).toBe(404);
});
