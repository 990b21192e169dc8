import { eventually } from '../helpers/smtp';
import { startZoomStandin } from '../helpers/zoom-standin';
import { startWorld, type World } from '../sequences/support/world';
import { alwaysAvailable, bookHoursAhead } from './helpers';

/**
 * Zoom per host (ZOOM_SETUP=per_host) against the stand-in: the host connects from the dashboard
 * (authorization code, the exchange at the callback), the tokens are kept sealed, an expired access
 * token is refreshed and the rotated refresh token stored, bookings get meetings as that Zoom user,
 * and Zoom's app_deauthorized removes the connection, its tokens and its meetings' Zoom data.
 */
const ZOOM = { clientId: 'oauth-client', clientSecret: 'oauth-secret', accountId: 'acc-9', secretToken: 'zm-secret-2' };
let w: World;
let zoom: Awaited<ReturnType<typeof startZoomStandin>>;

beforeAll(async () => {
  zoom = await startZoomStandin(ZOOM);
  w = await startWorld({
    appEnv: {
      VIDEO_PROVIDER_2_ADAPTER: 'zoom',
      ZOOM_SETUP: 'per_host',
      ZOOM_API_URL: zoom.apiUrl,
      ZOOM_OAUTH_URL: zoom.url,
      ZOOM_CLIENT_ID: ZOOM.clientId,
      ZOOM_CLIENT_SECRET: ZOOM.clientSecret,
      ZOOM_WEBHOOK_SECRET_TOKEN: ZOOM.secretToken,
    },
  });
  await alwaysAvailable(w.tdb.db, w.team.userId);
}, 60_000);
afterAll(async () => {
  await w?.close();
  await zoom?.close();
});

/** The host's browser: the dashboard asks for Zoom's page, Zoom sends it back to the callback. */
async function connect(loginAs = 'zoom-user-1'): Promise<{ status: number; text: string }> {
  const started = await w.dash.post('/api/v1/zoom-connection/authorize', {});
  expect(started.status).toBe(200);
  const authorize = new URL(started.body.data.authorize_url);
  authorize.searchParams.set('login_as', loginAs); // the stand-in's way of naming who signs in at Zoom
  const atZoom = await fetch(authorize, { redirect: 'manual' });
  expect(atZoom.status).toBe(302);
  const back = await fetch(atZoom.headers.get('location')!);
  return { status: back.status, text: await back.text() };
}

let hours = 40;
async function book() {
  const { res } = await bookHoursAhead(w.app.baseUrl, w.team, {
    hoursAhead: (hours += 3),
    attendeeEmail: `bo-${hours}@example.com`,
    eventType: { location_type: 'video_provider_2' },
  });
  expect(res.status).toBe(201);
  const id = res.body.meeting.id as string;
  await eventually(async () => (await w.tdb.db('meetings').where({ id }).first())?.meeting_link, 'the Zoom link');
  return { id, start: res.body.meeting.start_time as string };
}

test('without a connection the booking goes on without a link; the dashboard connects; API keys cannot start it', async () => {
  const { res } = await bookHoursAhead(w.app.baseUrl, w.team, {
    hoursAhead: 35,
    attendeeEmail: 'nolink@example.com',
    eventType: { location_type: 'video_provider_2' },
  });
  expect(res.status).toBe(201);
  await w.waitStarted(`booking-${res.body.meeting.id}`);
  await eventually(
    () => w.smtp.messages.find((x) => x.to === 'nolink@example.com' && x.parsed.headers.get('x-meeting-email') === 'confirmation'),
    'the confirmation without a link',
  );
  expect((await w.tdb.db('meetings').where({ id: res.body.meeting.id }).first())!.meeting_link).toBeNull();
  expect(await w.tdb.db('zoom_meetings').where({ meeting_id: res.body.meeting.id }).first()).toBeUndefined();

  expect((await w.api.post('/api/v1/zoom-connection/authorize', {})).body.error.code).toBe('dashboard_only');
  const started = await w.dash.post('/api/v1/zoom-connection/authorize', {});
  const url = new URL(started.body.data.authorize_url);
  expect(`${url.origin}${url.pathname}`).toBe(`${zoom.url}/oauth/authorize`);
  expect(url.searchParams.get('client_id')).toBe(ZOOM.clientId);
  expect(url.searchParams.get('redirect_uri')).toBe(`${w.app.baseUrl}/api/v1/zoom-connection/callback`);

  const done = await connect();
  expect(done.status).toBe(200);
  expect(done.text).toContain('Zoom is connected');
  const row = (await w.tdb.db('zoom_connections').where({ user_id: w.team.userId }).first())!;
  expect(row).toMatchObject({ zoom_user_id: 'zoom-user-1', zoom_account_id: ZOOM.accountId });
  const [refresh] = [...zoom.refreshTokens.keys()];
  expect(row.refresh_token_sealed.startsWith('v1.')).toBe(true);
  expect(row.refresh_token_sealed).not.toContain(refresh);
  const read = await w.api.get('/api/v1/zoom-connection');
  expect(read.status).toBe(200);
  expect(read.body.data).toEqual({
    id: row.id,
    zoom_user_id: 'zoom-user-1',
    zoom_account_id: ZOOM.accountId,
    created_at: expect.any(String),
    updated_at: expect.any(String),
  });
  expect(JSON.stringify(read.body)).not.toContain('token');
});

test('a tampered state, no code, or a code Zoom refuses: a clear page, no connection change', async () => {
  const callback = `${w.app.baseUrl}/api/v1/zoom-connection/callback`;
  const noCode = await fetch(callback);
  expect(noCode.status).toBe(400);
  expect(await noCode.text()).toContain('without a code');
  const started = await w.dash.post('/api/v1/zoom-connection/authorize', {});
  const state = new URL(started.body.data.authorize_url).searchParams.get('state')!;
  const tampered = await fetch(
    `${callback}?code=abc&state=${encodeURIComponent(state.replace(/^[0-9a-f]/, (c) => (c === 'a' ? 'b' : 'a')))}`,
  );
  expect(tampered.status).toBe(400);
  expect(await tampered.text()).toContain('not valid');
  const refused = await fetch(`${callback}?code=never-issued&state=${encodeURIComponent(state)}`);
  expect(refused.status).toBe(400);
  expect(await refused.text()).toContain('Zoom did not accept the connection');
  expect(zoom.calls.filter((c) => c.path === '/oauth/token' && c.method === 'POST').length).toBeGreaterThan(0);
});

test("bookings use the host's Zoom user; an expired token is refreshed and the rotated refresh token kept", async () => {
  const m = await book();
  const made = [...zoom.meetings.values()].find((z) => z.agenda.includes(m.id))!;
  expect(made.userId).toBe('zoom-user-1');
  const before = (await w.tdb.db('zoom_connections').where({ user_id: w.team.userId }).first())!;
  await w.tdb
    .db('zoom_connections')
    .where({ id: before.id })
    .update({ access_expires_at: new Date(Date.now() - 1000) });
  const refreshesBefore = zoom.state.refreshes;
  const m2 = await book();
  expect(zoom.state.refreshes).toBe(refreshesBefore + 1);
  const after = (await w.tdb.db('zoom_connections').where({ id: before.id }).first())!;
  expect(after.refresh_token_sealed).not.toBe(before.refresh_token_sealed);
  expect(zoom.refreshTokens.size).toBe(1); // the old refresh token no longer works at Zoom
  expect([...zoom.meetings.values()].some((z) => z.agenda.includes(m2.id))).toBe(true);
});

test('app_deauthorized: the connection, its tokens and its meetings’ Zoom data are gone', async () => {
  const m = await book();
  const res = await zoom.deliver(`${w.app.baseUrl}/api/hooks/zoom`, {
    event: 'app_deauthorized',
    event_ts: Date.now(),
    payload: {
      account_id: ZOOM.accountId,
      user_id: 'zoom-user-1',
      signature: 'sig',
      deauthorization_time: new Date().toISOString(),
      client_id: ZOOM.clientId,
    },
  });
  expect(res).toEqual({ status: 200, body: { outcome: 'purged' } });
  expect(await w.tdb.db('zoom_connections').where({ user_id: w.team.userId })).toHaveLength(0);
  expect(await w.tdb.db('zoom_meetings').where({ team_id: w.team.teamId })).toHaveLength(0);
  expect((await w.tdb.db('meetings').where({ id: m.id }).first())!.meeting_link).toBeNull();
  expect((await w.api.get('/api/v1/zoom-connection')).status).toBe(404);
  // a cancel afterwards has nothing of Zoom's to delete and calls no Zoom
  const deletes = zoom.calls.filter((c) => c.method === 'DELETE').length;
  expect((await w.api.patch(`/api/v1/meetings/${m.id}`, { status: 'cancelled' })).status).toBe(200);
  await w.waitStarted(`meeting-cleanup-${m.id}`);
  await w.env.client.workflow.getHandle(`meeting-cleanup-${m.id}`).result();
  expect(zoom.calls.filter((c) => c.method === 'DELETE').length).toBe(deletes);
});

test('disconnecting from the dashboard purges the same way', async () => {
  expect((await connect('zoom-user-2')).status).toBe(200);
  await book();
  expect((await w.api.delete('/api/v1/zoom-connection')).body.error.code).toBe('dashboard_only');
  expect((await w.dash.delete('/api/v1/zoom-connection')).status).toBe(204);
  expect(await w.tdb.db('zoom_connections')).toHaveLength(0);
  expect(await w.tdb.db('zoom_meetings')).toHaveLength(0);
  expect((await w.dash.delete('/api/v1/zoom-connection')).status).toBe(404);
});
