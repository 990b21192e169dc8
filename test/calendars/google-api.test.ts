import crypto from 'node:crypto';
import { backoffMs, idTokenEmail } from '../../core/calendars/provider-http';
import {
  googleAuthorizeUrl,
  googleCalendarApi,
  GoogleGrantError,
  GoogleRateLimitedError,
  googleRevoke,
  GoogleSyncTokenGoneError,
  googleToken,
  GoogleUnauthorizedError,
  missingScopes,
  type GoogleUrls,
} from '../../core/calendars/google-api';
import { startGoogleStandin, type GoogleStandin } from '../helpers/google-standin';

/** core/calendars/google-api.ts against the stand-in of Google's published OAuth and Calendar API shapes. */
const CLIENT = { id: 'gcal-client', secret: 'gcal-secret' };
let g: GoogleStandin;
let urls: GoogleUrls;

beforeAll(async () => {
  g = await startGoogleStandin({ clientId: CLIENT.id, clientSecret: CLIENT.secret });
  const env = g.env('http://127.0.0.1:9');
  urls = {
    authorizeUrl: env.GOOGLE_OAUTH_AUTHORIZE_URL,
    tokenUrl: env.GOOGLE_OAUTH_TOKEN_URL,
    revokeUrl: env.GOOGLE_OAUTH_REVOKE_URL,
    apiUrl: env.GOOGLE_CALENDAR_API_URL,
  };
  g.addCalendar('ada@example.com', { id: 'ada@example.com', primary: true, timeZone: 'Europe/Berlin' });
  g.addCalendar('ada@example.com', { id: 'team@group.calendar.google.com', accessRole: 'reader' });
});
afterAll(() => g.close());

async function connect(scope?: string) {
  const verifier = crypto.randomBytes(32).toString('base64url');
  const challenge = crypto.createHash('sha256').update(verifier).digest('base64url');
  const redirectUri = 'http://127.0.0.1:1/cb';
  const u = new URL(googleAuthorizeUrl(urls, { clientId: CLIENT.id, redirectUri, state: 's1', codeChallenge: challenge }));
  expect(Object.fromEntries(u.searchParams)).toMatchObject({
    access_type: 'offline',
    prompt: 'consent',
    code_challenge_method: 'S256',
    response_type: 'code',
  });
  u.searchParams.set('login_as', 'ada@example.com');
  if (scope) u.searchParams.set('grant_scopes', scope);
  const back = new URL((await fetch(u, { redirect: 'manual' })).headers.get('location')!);
  expect(back.searchParams.get('state')).toBe('s1');
  return { code: back.searchParams.get('code')!, verifier, redirectUri };
}

test('code exchange with PKCE, the granted scopes and the ID token address; refresh; revoke', async () => {
  const c = await connect();
  await expect(
    googleToken(urls, CLIENT, { grant_type: 'authorization_code', code: c.code, code_verifier: 'wrong', redirect_uri: c.redirectUri }),
  ).rejects.toBeInstanceOf(GoogleGrantError);
  const c2 = await connect();
  const t = await googleToken(urls, CLIENT, {
    grant_type: 'authorization_code',
    code: c2.code,
    code_verifier: c2.verifier,
    redirect_uri: c2.redirectUri,
  });
  expect(t.refresh_token).toBeTruthy();
  expect(missingScopes(t.scope)).toEqual([]);
  expect(idTokenEmail(t.id_token)).toBe('ada@example.com');
  const r = await googleToken(urls, CLIENT, { grant_type: 'refresh_token', refresh_token: t.refresh_token! });
  expect(r.access_token).not.toBe(t.access_token);
  await googleRevoke(urls, t.refresh_token!);
  await googleRevoke(urls, t.refresh_token!); // a token Google no longer knows counts as revoked
  await expect(googleToken(urls, CLIENT, { grant_type: 'refresh_token', refresh_token: t.refresh_token! })).rejects.toBeInstanceOf(
    GoogleGrantError,
  );
  await expect(googleCalendarApi(urls, r.access_token).calendarList()).rejects.toBeInstanceOf(GoogleUnauthorizedError);
  const narrow = await connect('openid email https://www.googleapis.com/auth/calendar.freebusy');
  const n = await googleToken(urls, CLIENT, {
    grant_type: 'authorization_code',
    code: narrow.code,
    code_verifier: narrow.verifier,
    redirect_uri: narrow.redirectUri,
  });
  expect(missingScopes(n.scope)).toEqual([
    'https://www.googleapis.com/auth/calendar.calendarlist.readonly',
    'https://www.googleapis.com/auth/calendar.events',
  ]);
});

test('calendar list, events by pages then by sync token, 410, 429 with Retry-After, 403 rate limits, watch and stop', async () => {
  const c = await connect();
  const t = await googleToken(urls, CLIENT, {
    grant_type: 'authorization_code',
    code: c.code,
    code_verifier: c.verifier,
    redirect_uri: c.redirectUri,
  });
  const api = googleCalendarApi(urls, t.access_token);
  const list = await api.calendarList();
  expect(list.map((x) => [x.id, x.accessRole, x.timeZone])).toEqual([
    ['ada@example.com', 'owner', 'Europe/Berlin'],
    ['team@group.calendar.google.com', 'reader', 'UTC'],
  ]);
  for (let i = 0; i < 3; i++)
    await g.putEvent(
      'ada@example.com',
      { id: `e${i}`, start: { dateTime: '2030-01-01T10:00:00Z' }, end: { dateTime: '2030-01-01T11:00:00Z' } },
      false,
    );
  g.faults.pageSize = 2;
  const p1 = await api.eventsPage('ada@example.com', { timeMin: '2029-01-01T00:00:00Z' });
  expect(p1.items.map((e) => e.id)).toEqual(['e0', 'e1']);
  expect(p1.nextSyncToken).toBeUndefined();
  const p2 = await api.eventsPage('ada@example.com', { pageToken: p1.nextPageToken });
  expect(p2.items.map((e) => e.id)).toEqual(['e2']);
  g.faults.pageSize = 2500;
  await g.deleteEvent('ada@example.com', 'e1', false);
  const inc = await api.eventsPage('ada@example.com', { syncToken: p2.nextSyncToken });
  expect(inc.items.map((e) => [e.id, e.status])).toEqual([['e1', 'cancelled']]);
  expect(g.calls.at(-1)!.query).toMatchObject({ syncToken: p2.nextSyncToken, singleEvents: 'true' });
  g.expireSyncTokens('ada@example.com');
  await expect(api.eventsPage('ada@example.com', { syncToken: inc.nextSyncToken })).rejects.toBeInstanceOf(GoogleSyncTokenGoneError);

  g.script.push({ status: 429, headers: { 'retry-after': '7' } });
  const limited = await api.calendarList().catch((e) => e);
  expect(limited).toBeInstanceOf(GoogleRateLimitedError);
  expect(limited.retryAfterMs).toBe(7000);
  g.script.push({ status: 403, body: { error: { code: 403, errors: [{ reason: 'userRateLimitExceeded' }], message: 'slow down' } } });
  const limited403 = await api.calendarList().catch((e) => e);
  expect(limited403).toBeInstanceOf(GoogleRateLimitedError);
  expect(limited403.retryAfterMs).toBeGreaterThanOrEqual(1000);
  expect(backoffMs(3, () => 0)).toBe(4000);
  expect(backoffMs(30, () => 1)).toBe(90_000);

  const ch = await api.watch('ada@example.com', { id: 'ch-1', address: 'http://127.0.0.1:9/hook', token: 'secret', ttlSeconds: 3600 });
  expect(ch.resourceId).toMatch(/^res-/);
  expect(ch.expiration).toBeGreaterThan(Date.now());
  expect(g.channels.get('ch-1')).toMatchObject({ token: 'secret', calendarId: 'ada@example.com' });
  await api.stopChannel({ id: 'ch-1', resourceId: ch.resourceId });
  expect(g.channels.has('ch-1')).toBe(false);
  await api.stopChannel({ id: 'ch-1', resourceId: ch.resourceId }); // 404: already stopped
});
