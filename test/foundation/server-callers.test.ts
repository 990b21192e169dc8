import { http } from '../helpers/http';
import { publishedEmailForm, rateLimitedEnv } from '../helpers/rate-limited';
import { alwaysAvailable, publishedEventType } from '../scheduling/helpers';
import { dateAhead } from '../helpers/open-day';
import { useApiWorld } from '../helpers/world';

/**
 * Public submissions and bookings sent from an integrator's server (api/http/server-caller.ts,
 * docs/getting-started.md "From your server"): the team's API key is counted instead of the
 * server's address, the visitor's address and user agent come in headers and are recorded and
 * limited, another team's key is a 403, and no key is as before.
 */
const LIMITS = { SUBMIT: 3, SUBMIT_PER_TARGET: 100, API_KEY: 40 };
const SERVER_IP = '203.0.113.10';

const w = useApiWorld({
  env: rateLimitedEnv({
    RATE_LIMIT_SUBMIT_PER_MINUTE: String(LIMITS.SUBMIT),
    RATE_LIMIT_SUBMIT_PER_TARGET_PER_MINUTE: String(LIMITS.SUBMIT_PER_TARGET),
    RATE_LIMIT_API_KEY_PER_MINUTE: String(LIMITS.API_KEY),
  }),
  other: true,
});

const publishedForm = (slug: string) => publishedEmailForm(w.app.baseUrl, w.team, slug);

const submit = (slug: string, i: number, headers: Record<string, string>) =>
  http(w.app.baseUrl, 'post', `/api/forms/${slug}/submissions`, {
    body: { fields: { email: `s${i}@example.com` } },
    headers: { 'x-forwarded-for': SERVER_IP, ...headers },
  });

test("a server's submissions count against its key, not its one address; without a key the address bucket applies as before", async () => {
  await publishedForm('srv-budget');
  const keyed: number[] = [];
  for (let i = 0; i < LIMITS.SUBMIT * 3; i++) keyed.push((await submit('srv-budget', i, { 'x-api-key': w.team.apiKey })).status);
  expect(keyed).toEqual(Array(LIMITS.SUBMIT * 3).fill(201));
  const last = await submit('srv-budget', 99, { 'x-api-key': w.team.apiKey });
  expect(last.headers.get('ratelimit-limit')).toBe(String(LIMITS.API_KEY));
  const plain: number[] = [];
  for (let i = 0; i < LIMITS.SUBMIT + 1; i++) plain.push((await submit('srv-budget', 100 + i, {})).status);
  expect(plain).toEqual([...Array(LIMITS.SUBMIT).fill(201), 429]);
});

test("the visitor's address and user agent are recorded, and the per-visitor limit uses that address", async () => {
  await publishedForm('srv-visitor');
  const visitor = {
    'x-api-key': w.team.apiKey,
    'x-visitor-ip': '198.51.100.77',
    'x-visitor-user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0)',
  };
  const statuses: number[] = [];
  for (let i = 0; i < LIMITS.SUBMIT + 1; i++) statuses.push((await submit('srv-visitor', i, visitor)).status);
  expect(statuses).toEqual([...Array(LIMITS.SUBMIT).fill(201), 429]);
  const another = await submit('srv-visitor', 50, { ...visitor, 'x-visitor-ip': '2001:db8::5' });
  expect(another.status).toBe(201);
  const row = await w.tdb.db('submissions').where({ id: another.body.data.id }).first();
  expect(row?.metadata).toMatchObject({ visitor_ip: '2001:db8::5', user_agent: visitor['x-visitor-user-agent'], device_type: 'mobile' });
  const bad = await submit('srv-visitor', 51, { ...visitor, 'x-visitor-ip': 'not-an-address' });
  expect(bad.status).toBe(400);
  expect(bad.body.error.details[0].path).toBe('headers.x-visitor-ip');
});

test("another team's key is a 403 on a submission and a booking; an invalid key a 401", async () => {
  await publishedForm('srv-other');
  const res = await submit('srv-other', 1, { 'x-api-key': w.other.apiKey });
  expect([res.status, res.body.error.code]).toEqual([403, 'forbidden']);
  const invalid = await submit('srv-other', 2, { 'x-api-key': 'sk_test_nope' });
  expect(invalid.status).toBe(401);
  const form = await w.tdb.db('forms').where({ slug: 'srv-other' }).first('id');
  expect(await w.tdb.db('submissions').where({ form_id: form?.id }).count('* as n')).toEqual([{ n: 0 }]);

  await alwaysAvailable(w.tdb.db, w.team.userId);
  const { eventTypeId } = await publishedEventType(w.app.baseUrl, w.team, {}, { start_time_increment: 60 });
  const d = dateAhead(2);
  const slots = await http(
    w.app.baseUrl,
    'get',
    `/api/calendar/availability?${new URLSearchParams({ event_type_id: eventTypeId, start_date: d, end_date: d, timezone: 'UTC' })}`,
  );
  const [a, b] = slots.body.data.slots;
  const book = (slot: { start: string; end: string }, key: string) =>
    http(w.app.baseUrl, 'post', '/api/calendar/book', {
      body: {
        event_type_id: eventTypeId,
        start_time: slot.start,
        end_time: slot.end,
        timezone: 'UTC',
        name: 'Ada',
        email: 'ada@example.com',
      },
      headers: { 'x-forwarded-for': SERVER_IP, 'x-api-key': key },
    });
  const refused = await book(a, w.other.apiKey);
  expect([refused.status, refused.body.error.code]).toEqual([403, 'forbidden']);
  expect(await w.tdb.db('meetings').where({ event_type_id: eventTypeId }).count('* as n')).toEqual([{ n: 0 }]);
  // The server's address is past its submit bucket (the first test): its own key still books.
  const booked = await book(b, w.team.apiKey);
  expect(booked.status).toBe(201);
});
