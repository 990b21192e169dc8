import { atRestBox } from '../../core/secret-box';
import { eventually } from '../helpers/smtp';
import { dayFromNow } from '../scheduling/helpers';
import { connectMicrosoft, hookPost, useMicrosoftWorld } from './microsoft-support';
import { rrSlots, syncSignals, waitForSync } from './provider-support';

/**
 * Microsoft 365 end to end against the stand-in (docs/calendars.md "Microsoft 365"): connect (PKCE,
 * state bound to the session, the granted scope checked, tokens sealed, the refresh token rotated),
 * the first sync (calendars, calendarView delta with Prefer UTC, subscriptions after Graph's validation
 * request), busy time arriving by push on several calendars, what blocks, a Windows-zone all-day event,
 * and spoofed notifications.
 */
const mw = useMicrosoftWorld();
const { w } = mw;
const OWNER = 'ada@contoso.example';
const WORK = 'AAMkAGI2-work=';
const TEAM = 'AAMkAGI2-team=';
const day = dayFromNow(3);
const at = (time: string, d = day) => `${d}T${time}:00Z`;
let connectionId: string;

test('the dashboard starts the connect; a tampered state, a refusal or a narrowed scope get a clear page', async () => {
  const g = mw.g();
  g.addCalendar(OWNER, { id: WORK, name: 'Calendar' });
  g.addCalendar(OWNER, { id: TEAM, name: 'Team', canEdit: false });
  expect((await w.api.post('/api/v1/microsoft-calendar/authorize', {})).body.error.code).toBe('dashboard_only');
  const started = await w.session.post('/api/v1/microsoft-calendar/authorize', {});
  const u = new URL(started.body.data.authorize_url);
  expect(`${u.origin}${u.pathname}`).toBe(`${g.url}/common/oauth2/v2.0/authorize`);
  expect(Object.fromEntries(u.searchParams)).toMatchObject({
    client_id: 'ms-client-id',
    redirect_uri: `${w.app.baseUrl}/api/v1/microsoft-calendar/callback`,
    response_type: 'code',
    response_mode: 'query',
    code_challenge_method: 'S256',
    scope: 'offline_access openid email User.Read Calendars.ReadWrite',
  });
  const callback = `${w.app.baseUrl}/api/v1/microsoft-calendar/callback`;
  const state = u.searchParams.get('state')!;
  const tampered = await fetch(`${callback}?code=x&state=${encodeURIComponent(state.replace(/.$/, (c) => (c === 'a' ? 'b' : 'a')))}`);
  expect([tampered.status, await tampered.text()]).toEqual([400, expect.stringContaining('not valid')]);
  const declined = await fetch(`${callback}?error=access_denied&error_description=AADSTS65004&state=${encodeURIComponent(state)}`);
  expect(declined.status).toBe(400);
  const refused = await fetch(`${callback}?code=never-issued&state=${encodeURIComponent(state)}`);
  expect(await refused.text()).toContain('Microsoft did not accept the connection');
  const narrow = await connectMicrosoft(w, OWNER, { grantScopes: 'openid email offline_access User.Read Calendars.Read' });
  expect([narrow.status, narrow.text]).toEqual([400, expect.stringContaining('without the permission it needs')]);
  expect(await w.tdb.db('calendar_connections').where({ kind: 'microsoft' }).first()).toBeUndefined();
});

test('connect: tokens sealed and rotated at each refresh; the first sync lists calendars, reads them in UTC and subscribes after validation', async () => {
  const g = mw.g();
  g.faults.accessTtlS = 30; // every sync refreshes: the rotated refresh token must be stored each time
  const done = await connectMicrosoft(w, OWNER);
  expect([done.status, done.text]).toEqual([200, expect.stringContaining('Microsoft 365 is connected')]);
  const row = (await w.tdb.db('calendar_connections').where({ kind: 'microsoft' }).first())!;
  connectionId = row.id;
  expect(row).toMatchObject({ account_email: OWNER, user_id: w.team.userId });
  const ok = await waitForSync(w, connectionId, 0, 'ok');
  expect(ok).toMatchObject({ kind: 'microsoft', account_email: OWNER });
  expect(ok.calendars.map((c: any) => [c.name, c.read_only, c.check_conflicts])).toEqual([
    ['Calendar', false, true],
    ['Team', true, true],
  ]);
  // The stored refresh token is the live one (older ones died at rotation); read both together, as a sync may rotate meanwhile.
  const { stored, refresh } = await eventually(async () => {
    const row = (await w.tdb.db('calendar_connections').where({ id: connectionId }).first())!;
    const token = JSON.parse(atRestBox(w.app.config).open(row.credentials_enc, connectionId)).refreshToken as string;
    return g.refreshTokens.has(token) ? { stored: row, refresh: token } : undefined;
  }, 'the stored refresh token is the live one');
  expect(g.calls.filter((c) => c.body?.grant_type === 'refresh_token').length).toBeGreaterThan(0);
  expect(stored.credentials_enc).not.toContain(refresh);
  const reads = g.calls.filter((c) => c.path.endsWith('/calendarView/delta'));
  expect(reads.length).toBeGreaterThanOrEqual(2);
  for (const r of reads) expect(r.prefer).toContain('outlook.timezone="UTC"');
  expect(reads[0].query).toMatchObject({ startDateTime: expect.any(String), endDateTime: expect.any(String) });
  // One subscription per checked calendar, made after Graph's validation requests were echoed.
  await eventually(() => g.subscriptions.size === 2, 'two subscriptions');
  const subs = await w.tdb.db('calendar_push_channels').where({ connection_id: connectionId });
  for (const s of subs) {
    const live = g.subscriptions.get(s.id)!;
    expect(live.notificationUrl).toBe(`${w.app.baseUrl}/api/hooks/microsoft-calendar`);
    expect(live.lifecycleNotificationUrl).toBe(`${w.app.baseUrl}/api/hooks/microsoft-calendar/lifecycle`);
    expect(s.token_hash).not.toContain(live.clientState);
  }
  expect((await rrSlots(mw, day)).get('09:00')).toBe(2);
});

test('busy events arrive by push on either calendar; free, working elsewhere, declined and deleted ones do not block; a Windows-zone all-day event blocks its day', async () => {
  const g = mw.g();
  await g.putEvent(WORK, { id: 'busy1', start: at('10:00'), end: at('11:00') });
  await eventually(async () => (await rrSlots(mw, day)).get('10:00') === 1, 'the 10:00 slot goes by push');
  expect(g.calls.filter((c) => c.path.endsWith('/calendarView/delta') && c.query.$deltatoken).length).toBeGreaterThan(0);
  await g.putEvent(TEAM, { id: 'team1', start: at('11:00'), end: at('12:00'), showAs: 'tentative' });
  await eventually(async () => (await rrSlots(mw, day)).get('11:00') === 1, 'the other calendar blocks too');
  await g.putEvent(WORK, { id: 'free', start: at('12:00'), end: at('13:00'), showAs: 'free' });
  await g.putEvent(WORK, { id: 'elsewhere', start: at('13:00'), end: at('14:00'), showAs: 'workingElsewhere' });
  await g.putEvent(WORK, { id: 'declined', start: at('14:00'), end: at('15:00'), response: 'declined' });
  await g.putEvent(WORK, { id: 'gone', start: at('15:00'), end: at('16:00') });
  await eventually(async () => (await rrSlots(mw, day)).get('15:00') === 1, 'the 15:00 event blocks');
  await g.deleteEvent(WORK, 'gone');
  await eventually(async () => (await rrSlots(mw, day)).get('15:00') === 2, 'the deleted event stops blocking');
  const s = await rrSlots(mw, day);
  expect([s.get('12:00'), s.get('13:00'), s.get('14:00')]).toEqual([2, 2, 2]);

  // All day in Tokyo (a Windows zone name): from 15:00 UTC the day before to 15:00 UTC.
  const next = dayFromNow(5);
  await g.putEvent(WORK, { id: 'allday', start: next, end: dayFromNow(6), isAllDay: true, originalStartTimeZone: 'Tokyo Standard Time' });
  await eventually(async () => (await rrSlots(mw, next)).get('09:00') === 1, 'the all-day event blocks');
  expect((await rrSlots(mw, next)).get('15:00')).toBe(2);
  expect((await rrSlots(mw, dayFromNow(4))).get('15:00')).toBe(1);
  const objects = await w.tdb.db('calendar_objects').where({ connection_id: connectionId });
  for (const o of objects) expect(o.data).not.toContain('Private');
});

test('spoofed notifications (unknown subscription, wrong clientState) wake nothing; the validation request is echoed', async () => {
  const g = mw.g();
  const [sub] = [...g.subscriptions.values()];
  const signals = await syncSignals(w, connectionId);
  const unknown = await hookPost(w, [{ subscriptionId: 'not-ours', clientState: sub.clientState, changeType: 'created' }]);
  expect([unknown.status, await unknown.json()]).toEqual([202, { outcome: 'ignored' }]);
  const wrong = await hookPost(w, [{ subscriptionId: sub.id, clientState: `${sub.clientState}x`, changeType: 'created' }]);
  expect([wrong.status, (await wrong.json()).error.code]).toEqual([401, 'invalid_token']);
  const lifecycle = await hookPost(
    w,
    [{ subscriptionId: sub.id, clientState: 'nope', lifecycleEvent: 'subscriptionRemoved' }],
    '/api/hooks/microsoft-calendar/lifecycle',
  );
  expect(lifecycle.status).toBe(401);
  expect(await w.tdb.db('calendar_push_channels').where({ id: sub.id }).first()).toBeDefined();
  const v = await fetch(`${w.app.baseUrl}/api/hooks/microsoft-calendar?validationToken=${encodeURIComponent('a <b> & c')}`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain' },
  });
  expect([v.status, v.headers.get('content-type'), await v.text()]).toEqual([200, 'text/plain; charset=utf-8', 'a <b> & c']);
  const right = await hookPost(w, [{ subscriptionId: sub.id, clientState: sub.clientState, changeType: 'updated' }]);
  expect([right.status, await right.json()]).toEqual([202, { outcome: 'signalled' }]);
  await signals.expectExactlyOneMore();
});
