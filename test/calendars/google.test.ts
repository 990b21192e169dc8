import { atRestBox } from '../../core/secret-box';
import { eventually } from '../helpers/smtp';
import { dayFromNow } from '../scheduling/helpers';
import { connectGoogle, rrSlots, useGoogleWorld, waitForGoogleSync } from './google-support';
import { syncSignals } from './provider-support';

/**
 * Google Calendar end to end against the stand-in (docs/calendars.md "Google Calendar"): connect
 * (PKCE, state bound to the session, the granted scopes checked, tokens sealed), the first sync in the
 * worker, fail closed while never read, busy time arriving by push (and free, declined, cancelled and
 * all-day events), and spoofed pushes.
 */
const gw = useGoogleWorld();
const { w } = gw;
const OWNER = 'owner@gmail.example';
const day = dayFromNow(3);
let connectionId: string;

const at = (time: string, d = day) => `${d}T${time}:00Z`;

test('the dashboard starts the connect (API keys cannot); a tampered state, a refusal or unticked scopes get a clear page', async () => {
  const g = gw.g();
  g.addCalendar(OWNER, { id: OWNER, summary: 'Owner', timeZone: 'Asia/Tokyo', primary: true });
  g.addCalendar(OWNER, { id: 'holidays@group.v.calendar.google.com', summary: 'Holidays', accessRole: 'reader' });
  expect((await w.api.post('/api/v1/google-calendar/authorize', {})).body.error.code).toBe('dashboard_only');
  const started = await w.session.post('/api/v1/google-calendar/authorize', {});
  const u = new URL(started.body.data.authorize_url);
  expect(`${u.origin}${u.pathname}`).toBe(`${g.url}/o/oauth2/v2/auth`);
  expect(Object.fromEntries(u.searchParams)).toMatchObject({
    client_id: 'gcal-client-id',
    redirect_uri: `${w.app.baseUrl}/api/v1/google-calendar/callback`,
    access_type: 'offline',
    prompt: 'consent',
    code_challenge_method: 'S256',
    response_type: 'code',
  });
  expect(u.searchParams.get('scope')!.split(' ')).toEqual(
    expect.arrayContaining([
      'https://www.googleapis.com/auth/calendar.freebusy',
      'https://www.googleapis.com/auth/calendar.calendarlist.readonly',
      'https://www.googleapis.com/auth/calendar.events',
    ]),
  );
  expect(u.searchParams.get('scope')).not.toContain('auth/calendar '); // never the whole calendar scope

  const callback = `${w.app.baseUrl}/api/v1/google-calendar/callback`;
  const state = u.searchParams.get('state')!;
  const tampered = await fetch(`${callback}?code=x&state=${encodeURIComponent(state.replace(/.$/, (c) => (c === 'a' ? 'b' : 'a')))}`);
  expect(tampered.status).toBe(400);
  expect(await tampered.text()).toContain('not valid');
  const declined = await fetch(`${callback}?error=access_denied&state=${encodeURIComponent(state)}`);
  expect(declined.status).toBe(400);
  const refused = await fetch(`${callback}?code=never-issued&state=${encodeURIComponent(state)}`);
  expect(refused.status).toBe(400);
  expect(await refused.text()).toContain('Google did not accept the connection');
  const narrow = await connectGoogle(w, OWNER, { grantScopes: 'openid email https://www.googleapis.com/auth/calendar.freebusy' });
  expect(narrow.status).toBe(400);
  expect(narrow.text).toContain('without the permissions it needs');
  expect(await w.tdb.db('calendar_connections').where({ kind: 'google' }).first()).toBeUndefined();
});

test('connect: tokens sealed; never read → the host offers nothing while the other host does; the first good sync lists calendars and makes channels', async () => {
  const g = gw.g();
  // Google fails the first reads: the connection is never read, so its host offers no times.
  g.script.push({ status: 503 });
  const done = await connectGoogle(w, OWNER);
  expect(done.status).toBe(200);
  expect(done.text).toContain('Google Calendar is connected');
  const row = (await w.tdb.db('calendar_connections').where({ kind: 'google' }).first())!;
  connectionId = row.id;
  expect(row).toMatchObject({ account_email: OWNER, user_id: w.team.userId });
  const refresh = [...g.refreshTokens.keys()].at(-1)!;
  expect(row.credentials_enc.startsWith('v1.')).toBe(true);
  expect(row.credentials_enc).not.toContain(refresh);
  expect(JSON.parse(atRestBox(w.app.config).open(row.credentials_enc, row.id)).refreshToken).toBe(refresh);

  const failed = await waitForGoogleSync(w, connectionId, 0, 'error');
  expect(failed.last_synced_at).toBeNull();
  const blocked = await rrSlots(gw, day);
  expect([...blocked.values()].every((n) => n === 1)).toBe(true);
  expect(blocked.size).toBe(10);

  const since = Date.now();
  expect((await w.session.post(`/api/v1/calendar-connections/${connectionId}/sync`)).status).toBe(202);
  const ok = await waitForGoogleSync(w, connectionId, since, 'ok');
  expect(ok).toMatchObject({ kind: 'google', account_email: OWNER, status: 'ok' });
  expect(ok.calendars.map((c: any) => [c.name, c.timezone, c.read_only, c.check_conflicts])).toEqual([
    ['Holidays', 'UTC', true, true],
    ['Owner', 'Asia/Tokyo', false, true],
  ]);
  expect(JSON.stringify((await w.api.get(`/api/v1/calendar-connections/${connectionId}`)).body)).not.toContain(refresh);
  const open = await rrSlots(gw, day);
  expect(open.get('09:00')).toBe(2);
  // One channel per checked calendar, its token known only as a hash here.
  await eventually(() => g.channels.size === 2, 'two channels');
  const stored = await w.tdb.db('calendar_push_channels').where({ connection_id: connectionId });
  expect(stored).toHaveLength(2);
  for (const s of stored) {
    const ch = g.channels.get(s.id)!;
    expect(ch.address).toBe(`${w.app.baseUrl}/api/hooks/google-calendar`);
    expect(s.token_hash).not.toContain(ch.token);
    expect(s.resource_id).toBe(ch.resourceId);
  }
});

test('a busy event arrives by push and its slot goes; free, declined and cancelled events do not block; all-day blocks the day in the calendar zone', async () => {
  const g = gw.g();
  const syncsBefore = g.calls.filter((c) => c.path.endsWith('/events') && c.query.syncToken).length;
  await g.putEvent(OWNER, { id: 'busy1', start: { dateTime: at('10:00') }, end: { dateTime: at('11:00') } });
  await eventually(async () => (await rrSlots(gw, day)).get('10:00') === 1, 'the 10:00 slot goes by push');
  // The push woke an incremental read (events.list with the stored syncToken), not a full one.
  expect(g.calls.filter((c) => c.path.endsWith('/events') && c.query.syncToken).length).toBeGreaterThan(syncsBefore);

  await g.putEvent(OWNER, { id: 'free', transparency: 'transparent', start: { dateTime: at('12:00') }, end: { dateTime: at('13:00') } });
  await g.putEvent(OWNER, {
    id: 'declined',
    start: { dateTime: at('13:00') },
    end: { dateTime: at('14:00') },
    attendees: [{ email: OWNER, self: true, responseStatus: 'declined' }],
  });
  await g.putEvent(OWNER, { id: 'gone', start: { dateTime: at('14:00') }, end: { dateTime: at('15:00') } });
  await eventually(async () => (await rrSlots(gw, day)).get('14:00') === 1, 'the 14:00 event blocks');
  await g.deleteEvent(OWNER, 'gone');
  await eventually(async () => (await rrSlots(gw, day)).get('14:00') === 2, 'the cancelled event stops blocking');
  const s = await rrSlots(gw, day);
  expect(s.get('12:00')).toBe(2);
  expect(s.get('13:00')).toBe(2);

  // All day on the next day in Tokyo (UTC+9): from 15:00 UTC on `day` to 15:00 UTC the day after.
  const next = dayFromNow(4);
  await g.putEvent(OWNER, { id: 'allday', start: { date: next }, end: { date: dayFromNow(5) } });
  await eventually(async () => (await rrSlots(gw, next)).get('09:00') === 1, 'the all-day event blocks');
  const n = await rrSlots(gw, next);
  expect(n.get('14:00')).toBe(1);
  expect(n.get('15:00')).toBe(2);
  const d = await rrSlots(gw, day);
  expect(d.get('15:00')).toBe(1);
  expect(d.get('14:00')).toBe(2);

  await g.deleteEvent(OWNER, 'busy1');
  await eventually(async () => (await rrSlots(gw, day)).get('10:00') === 2, 'the slot comes back after the delete');
  // Stored events keep only what decides busy time.
  const objects = await w.tdb.db('calendar_objects').where({ connection_id: connectionId });
  expect(objects.length).toBeGreaterThan(0);
  for (const o of objects) expect(o.data).not.toContain(OWNER);
});

test('a spoofed push (unknown channel, wrong token) is answered at once and wakes nothing', async () => {
  const g = gw.g();
  const hook = `${w.app.baseUrl}/api/hooks/google-calendar`;
  const [ch] = [...g.channels.values()];
  const signals = await syncSignals(w, connectionId);
  const unknown = await fetch(hook, {
    method: 'POST',
    headers: { 'X-Goog-Channel-ID': 'not-ours', 'X-Goog-Channel-Token': ch.token, 'X-Goog-Resource-State': 'exists' },
  });
  expect(unknown.status).toBe(200);
  expect(await unknown.json()).toEqual({ outcome: 'ignored' });
  const wrong = await fetch(hook, {
    method: 'POST',
    headers: { 'X-Goog-Channel-ID': ch.id, 'X-Goog-Channel-Token': `${ch.token}x`, 'X-Goog-Resource-State': 'exists' },
  });
  expect(wrong.status).toBe(401);
  expect((await wrong.json()).error.code).toBe('invalid_token');
  const none = await fetch(hook, { method: 'POST' });
  expect(await none.json()).toEqual({ outcome: 'ignored' });
  const right = await fetch(hook, {
    method: 'POST',
    headers: { 'X-Goog-Channel-ID': ch.id, 'X-Goog-Channel-Token': ch.token, 'X-Goog-Resource-State': 'exists' },
  });
  expect(await right.json()).toEqual({ outcome: 'signalled' });
  await signals.expectExactlyOneMore();
});
