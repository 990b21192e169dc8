import { sha256Hex } from '../../core/crypto';
import { reconcileCalendarSyncs } from '../../services/calendars/reconcile';
import { signalSyncNow } from '../../services/calendars/sync-workflow';
import { GOOGLE_STALE_LIMIT_MS } from '../../services/calendars/user-busy';
import { createSession } from '../../services/sessions';
import { client } from '../helpers/http';
import { eventually } from '../helpers/smtp';
import { dayFromNow } from '../scheduling/helpers';
import { connectGoogle, rrSlots, useGoogleWorld, waitForGoogleSync } from './google-support';

/**
 * A Google connection's life against the stand-in (docs/calendars.md "Google Calendar"): the state is
 * bound to the session that started it, a 410 resync, throttling (429 with Retry-After), channel
 * renewal and stopping, disconnect (channels stopped, token revoked, busy time gone, later pushes
 * ignored), and a revoked grant (needs_reauth: the host offers nothing, the other round-robin host does).
 */
const gw = useGoogleWorld();
const { w } = gw;
const OWNER = 'life@gmail.example';
const HOLIDAYS = 'holidays@group.v.calendar.google.com';
const day = dayFromNow(2);
const at = (time: string) => `${day}T${time}:00Z`;
let connectionId: string;

async function syncNow(status?: string) {
  const since = Date.now();
  expect((await w.session.post(`/api/v1/calendar-connections/${connectionId}/sync`)).status).toBe(202);
  return waitForGoogleSync(w, connectionId, since, status);
}

beforeAll(async () => {
  const g = gw.g();
  g.addCalendar(OWNER, { id: OWNER, summary: 'Life', primary: true });
  g.addCalendar(OWNER, { id: HOLIDAYS, summary: 'Holidays', accessRole: 'reader' });
  await g.putEvent(OWNER, { id: 'a', start: { dateTime: at('09:00') }, end: { dateTime: at('10:00') } }, false);
  expect((await connectGoogle(w, OWNER)).status).toBe(200);
  connectionId = (await w.tdb.db('calendar_connections').where({ kind: 'google' }).first())!.id;
  await waitForGoogleSync(w, connectionId, 0, 'ok');
});

test('the state is bound to the dashboard session that started it: once that session has ended the callback refuses', async () => {
  const s = await createSession(w.tdb.db, { userId: w.team.userId });
  const started = await client(w.app.baseUrl, s.token).post('/api/v1/google-calendar/authorize', {});
  expect(started.status).toBe(200);
  const authorize = new URL(started.body.data.authorize_url);
  authorize.searchParams.set('login_as', OWNER);
  const back = (await fetch(authorize, { redirect: 'manual' })).headers.get('location')!;
  await w.tdb
    .db('sessions')
    .where({ token_hash: sha256Hex(s.token) })
    .delete(); // signed out
  const res = await fetch(back);
  expect(res.status).toBe(400);
  expect(await res.text()).toContain('session that started this connection has ended');
});

test('410 fullSyncRequired: the calendar is wiped and read in full, and what was deleted meanwhile stops blocking', async () => {
  const g = gw.g();
  expect((await rrSlots(gw, day)).get('09:00')).toBe(1);
  await g.deleteEvent(OWNER, 'a', false);
  await g.putEvent(OWNER, { id: 'b', start: { dateTime: at('11:00') }, end: { dateTime: at('12:00') } }, false);
  g.expireSyncTokens(OWNER);
  const from = g.calls.length;
  await syncNow('ok');
  const reads = g.calls.slice(from).filter((c) => c.path === `/calendar/v3/calendars/${encodeURIComponent(OWNER)}/events`);
  expect(reads.map((c) => !!c.query.syncToken)).toEqual([true, false]);
  const s = await rrSlots(gw, day);
  expect(s.get('09:00')).toBe(2);
  expect(s.get('11:00')).toBe(1);
});

test('throttling: a 429 with Retry-After is retried after it, and the sync then succeeds', async () => {
  const g = gw.g();
  await g.putEvent(OWNER, { id: 'c', start: { dateTime: at('13:00') }, end: { dateTime: at('14:00') } }, false);
  g.script.push({ status: 429, headers: { 'retry-after': '1' } });
  const from = g.calls.length;
  await syncNow('ok');
  const lists = g.calls.slice(from).filter((c) => c.path === '/calendar/v3/users/me/calendarList');
  expect(lists.length).toBeGreaterThanOrEqual(2); // the throttled call, then the retry after Retry-After
  expect(lists[1].at - lists[0].at).toBeGreaterThanOrEqual(900);
  expect((await rrSlots(gw, day)).get('13:00')).toBe(1);
});

test('channels: an unchecked calendar loses its channel; a short-lived channel is renewed before it expires', async () => {
  const g = gw.g();
  const conn = (await w.api.get(`/api/v1/calendar-connections/${connectionId}`)).body.data;
  const holidays = conn.calendars.find((c: any) => c.name === 'Holidays');
  const channelOf = () => [...g.channels.values()].filter((c) => c.calendarId === HOLIDAYS);
  expect(channelOf()).toHaveLength(1);
  await w.session.patch(`/api/v1/calendar-connections/${connectionId}`, { calendars: [{ id: holidays.id, check_conflicts: false }] });
  await eventually(() => channelOf().length === 0, 'the unchecked calendar’s channel is stopped');
  g.faults.channelTtlMs = 4_000;
  await w.session.patch(`/api/v1/calendar-connections/${connectionId}`, { calendars: [{ id: holidays.id, check_conflicts: true }] });
  const first = await eventually(() => channelOf()[0], 'a new short-lived channel');
  const renewed = await eventually(() => channelOf().find((c) => c.id !== first.id), 'the channel renewed before it expires');
  g.faults.channelTtlMs = 7 * 24 * 3600_000;
  expect(renewed.expiration).toBeGreaterThan(first.expiration);
  await eventually(() => !g.channels.has(first.id), 'the old channel stopped');
  await eventually(async () => !(await w.tdb.db('calendar_push_channels').where({ id: first.id }).first()), 'its row gone');
});

test('disconnect: channels stopped, the token revoked, the busy time gone at once; a later push for a stopped channel is ignored', async () => {
  const g = gw.g();
  expect((await rrSlots(gw, day)).get('11:00')).toBe(1);
  const channels = [...g.channels.values()];
  const refresh = [...g.refreshTokens.keys()].at(-1)!;
  expect((await w.session.delete(`/api/v1/calendar-connections/${connectionId}`)).status).toBe(204);
  expect((await rrSlots(gw, day)).get('11:00')).toBe(2);
  expect((await w.api.get(`/api/v1/calendar-connections/${connectionId}`)).status).toBe(404);
  await eventually(() => g.channels.size === 0, 'every channel stopped');
  await eventually(() => !g.refreshTokens.has(refresh), 'the token revoked');
  await eventually(async () => !(await w.tdb.db('calendar_connections').where({ id: connectionId }).first()), 'the row gone');
  const late = await fetch(`${w.app.baseUrl}/api/hooks/google-calendar`, {
    method: 'POST',
    headers: { 'X-Goog-Channel-ID': channels[0].id, 'X-Goog-Channel-Token': channels[0].token, 'X-Goog-Resource-State': 'exists' },
  });
  expect(await late.json()).toEqual({ outcome: 'ignored' });
});

test('a revoked grant: needs_reauth on the connection, its host offers no times, the other round-robin host still does; connecting again heals it', async () => {
  const g = gw.g();
  expect((await connectGoogle(w, OWNER)).status).toBe(200);
  connectionId = (await w.tdb.db('calendar_connections').where({ kind: 'google' }).first())!.id;
  await waitForGoogleSync(w, connectionId, 0, 'ok');
  expect((await rrSlots(gw, day)).get('15:00')).toBe(2);
  // The host removes the app's access in their Google account: refresh and access tokens die.
  g.refreshTokens.clear();
  g.accessTokens.clear();
  const c = await syncNow('needs_reauth');
  expect(c.status_message).toContain('connect Google Calendar again');
  const listed = await w.api.get('/api/v1/calendar-connections?status=needs_reauth');
  expect(listed.body.data.map((x: any) => x.id)).toEqual([connectionId]);
  const s = await rrSlots(gw, day);
  expect(s.size).toBe(10);
  expect([...s.values()].every((n) => n === 1)).toBe(true);

  expect((await connectGoogle(w, OWNER)).status).toBe(200);
  expect((await w.tdb.db('calendar_connections').where({ kind: 'google' })).map((r) => r.id)).toEqual([connectionId]);
  await waitForGoogleSync(w, connectionId, 0, 'ok');
  expect((await rrSlots(gw, day)).get('15:00')).toBe(2);
});

test('not read for longer than the limit (the worker or Google down): the reconcile makes its host offer no times; the next good read lifts it', async () => {
  await w.tdb
    .db('calendar_connections')
    .where({ id: connectionId })
    .update({ last_read_at: new Date(Date.now() - GOOGLE_STALE_LIMIT_MS - 60_000) });
  expect((await rrSlots(gw, day)).get('15:00')).toBe(2); // nothing rewrote the host's busy time yet
  await reconcileCalendarSyncs(w.app.deps);
  const s = await rrSlots(gw, day);
  expect([...s.values()].every((n) => n === 1)).toBe(true);
  await syncNow('ok');
  expect((await rrSlots(gw, day)).get('15:00')).toBe(2);
});

test('removing a member disconnects their Google account: channels stopped, token revoked, connection gone', async () => {
  const g = gw.g();
  const MEMBER = 'member@gmail.example';
  g.addCalendar(MEMBER, { id: MEMBER, primary: true });
  const s = await createSession(w.tdb.db, { userId: gw.ctx.memberId });
  const started = await client(w.app.baseUrl, s.token).post('/api/v1/google-calendar/authorize', {});
  const authorize = new URL(started.body.data.authorize_url);
  authorize.searchParams.set('login_as', MEMBER);
  const back = await fetch((await fetch(authorize, { redirect: 'manual' })).headers.get('location')!);
  expect(back.status).toBe(200);
  const row = (await w.tdb.db('calendar_connections').where({ account_email: MEMBER }).first())!;
  await waitForGoogleSync(w, row.id, 0, 'ok');
  await eventually(() => [...g.channels.values()].some((c) => c.calendarId === MEMBER), 'the member’s channel');
  const refresh = [...g.refreshTokens.entries()].find(([, v]) => v.email === MEMBER)![0];

  expect((await w.session.delete(`/api/v1/team/members/${gw.ctx.memberId}`)).status).toBe(204);
  expect((await w.api.get(`/api/v1/calendar-connections/${row.id}`)).status).toBe(404);
  await signalSyncNow(w.app.deps, row); // the workflow's next interval, without waiting for it
  await eventually(async () => !(await w.tdb.db('calendar_connections').where({ id: row.id }).first()), 'the connection gone');
  expect(g.refreshTokens.has(refresh)).toBe(false);
  expect([...g.channels.values()].some((c) => c.calendarId === MEMBER)).toBe(false);
});
