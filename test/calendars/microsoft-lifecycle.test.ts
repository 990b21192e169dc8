import { createSession } from '../../services/sessions';
import { signalSyncNow } from '../../services/calendars/sync-workflow';
import { client } from '../helpers/http';
import { eventually } from '../helpers/smtp';
import { dayFromNow } from '../scheduling/helpers';
import { connectMicrosoft, hookPost, useMicrosoftWorld } from './microsoft-support';
import { rrSlots, syncNowAndWait, waitForSync } from './provider-support';

/**
 * A Microsoft 365 connection's life against the stand-in (docs/calendars.md "Microsoft 365"): a 410
 * resync, throttling (429 with Retry-After), subscription renewal and lifecycle notices, a grant
 * expired by inactivity (AADSTS700082 → needs_reauth: the host offers nothing, the other round-robin
 * host does), disconnect and member removal (subscriptions deleted, busy time gone, later
 * notifications ignored).
 */
const mw = useMicrosoftWorld();
const { w } = mw;
const OWNER = 'life@contoso.example';
const CAL = 'AAMkAGLife=';
const day = dayFromNow(2);
const at = (time: string) => `${day}T${time}:00Z`;
let connectionId: string;

const syncNow = (status?: string) => syncNowAndWait(w, connectionId, status);
const deltaReads = (from: number) =>
  mw
    .g()
    .calls.slice(from)
    .filter((c) => c.path.endsWith('/calendarView/delta'));

beforeAll(async () => {
  const g = mw.g();
  g.addCalendar(OWNER, { id: CAL, name: 'Calendar' });
  await g.putEvent(CAL, { id: 'a', start: at('09:00'), end: at('10:00') }, false);
  expect((await connectMicrosoft(w, OWNER)).status).toBe(200);
  connectionId = (await w.tdb.db('calendar_connections').where({ kind: 'microsoft' }).first())!.id;
  await waitForSync(w, connectionId, 0, 'ok');
});

test('410 syncStateNotFound: the calendar is wiped and read in full; what was deleted meanwhile stops blocking', async () => {
  const g = mw.g();
  expect((await rrSlots(mw, day)).get('09:00')).toBe(1);
  await g.deleteEvent(CAL, 'a', false);
  await g.putEvent(CAL, { id: 'b', start: at('11:00'), end: at('12:00') }, false);
  g.expireDeltas(CAL);
  const from = g.calls.length;
  await syncNow('ok');
  expect(deltaReads(from).map((c) => (c.query.$deltatoken ? 'delta' : c.query.startDateTime ? 'window' : 'other'))).toEqual([
    'delta',
    'window',
  ]);
  const s = await rrSlots(mw, day);
  expect([s.get('09:00'), s.get('11:00')]).toEqual([2, 1]);
});

test('throttling: a 429 with Retry-After is retried after it, and the sync then succeeds', async () => {
  const g = mw.g();
  await g.putEvent(CAL, { id: 'c', start: at('13:00'), end: at('14:00') }, false);
  g.script.push({ status: 429, headers: { 'retry-after': '1' } });
  const from = g.calls.length;
  await syncNow('ok');
  const lists = g.calls.slice(from).filter((c) => c.path === '/v1.0/me/calendars');
  expect(lists.length).toBeGreaterThanOrEqual(2);
  expect(lists[1].at - lists[0].at).toBeGreaterThanOrEqual(900);
  expect((await rrSlots(mw, day)).get('13:00')).toBe(1);
});

test('subscriptions: a short-lived one is renewed (PATCH) before it expires; reauthorizationRequired renews, subscriptionRemoved makes a new one, missed resyncs', async () => {
  const g = mw.g();
  const [first] = [...g.subscriptions.values()];
  g.faults.maxSubscriptionMs = 6_000;
  await syncNow('ok'); // renewed now? not yet due: it has days left
  await g.lifecycle(first.id, 'reauthorizationRequired');
  await eventually(
    () => g.calls.some((c) => c.method === 'PATCH' && c.path === `/v1.0/subscriptions/${first.id}`),
    'renewed on reauthorizationRequired',
  );
  const patches = () => g.calls.filter((c) => c.method === 'PATCH').length;
  const n = patches();
  await eventually(() => patches() > n, 'the short-lived subscription renewed before it expires');
  expect(g.subscriptions.get(first.id)!.expiration).toBeGreaterThan(Date.now());
  g.faults.maxSubscriptionMs = 4230 * 60_000;
  await syncNow('ok');

  expect(await g.lifecycle(first.id, 'subscriptionRemoved')).toBe(202);
  const again = await eventually(() => [...g.subscriptions.values()].find((s) => s.id !== first.id), 'a new subscription');
  expect(await w.tdb.db('calendar_push_channels').where({ id: first.id }).first()).toBeUndefined();
  await g.putEvent(CAL, { id: 'd', start: at('14:00'), end: at('15:00') }, false); // its notification lost
  expect(await g.lifecycle(again.id, 'missed')).toBe(202);
  await eventually(async () => (await rrSlots(mw, day)).get('14:00') === 1, 'missed → the change is read');
});

test('a refresh token expired by inactivity (AADSTS700082): needs_reauth, its host offers no times, the other host does; connecting again heals it', async () => {
  const g = mw.g();
  g.faults.inactive = true;
  g.accessTokens.clear(); // the access token has expired: the refresh meets AADSTS700082
  const c = await syncNow('needs_reauth');
  expect(c.status_message).toContain('connect Microsoft 365 again');
  expect(c.status_message).toContain('AADSTS700082');
  // The host is emailed once about it (calendar-reauth.ts; the send is claimed on the row).
  const emailedAt = async () =>
    (await w.tdb.db('calendar_connections').where({ id: connectionId }).first('reauth_email_sent_at'))?.reauth_email_sent_at;
  await eventually(async () => (await emailedAt()) !== null, 'the email to the host');
  const s = await rrSlots(mw, day);
  expect(s.size).toBe(10);
  expect([...s.values()].every((x) => x === 1)).toBe(true);
  g.faults.inactive = false;
  expect((await connectMicrosoft(w, OWNER)).status).toBe(200);
  expect((await w.tdb.db('calendar_connections').where({ kind: 'microsoft' })).map((r) => r.id)).toEqual([connectionId]);
  await waitForSync(w, connectionId, 0, 'ok');
  expect(await emailedAt()).toBeNull(); // a later needs_reauth emails again
  expect((await rrSlots(mw, day)).get('15:00')).toBe(2);
});

test('a 401 that survives a refresh: needs_reauth', async () => {
  const g = mw.g();
  g.faults.rejectAccess = true;
  const c = await syncNow('needs_reauth');
  expect(c.status_message).toContain('HTTP 401');
  expect(g.calls.filter((x) => x.body?.grant_type === 'refresh_token').length).toBeGreaterThan(0);
  g.faults.rejectAccess = false;
  expect((await connectMicrosoft(w, OWNER)).status).toBe(200);
  await waitForSync(w, connectionId, 0, 'ok');
});

test('disconnect: subscriptions deleted, busy time gone at once; a later notification is ignored', async () => {
  const g = mw.g();
  expect((await rrSlots(mw, day)).get('11:00')).toBe(1);
  const subs = [...g.subscriptions.values()];
  expect(subs.length).toBe(1);
  expect((await w.session.delete(`/api/v1/calendar-connections/${connectionId}`)).status).toBe(204);
  expect((await rrSlots(mw, day)).get('11:00')).toBe(2);
  await eventually(() => g.subscriptions.size === 0, 'every subscription deleted');
  await eventually(async () => !(await w.tdb.db('calendar_connections').where({ id: connectionId }).first()), 'the row gone');
  const calls = g.calls.length;
  const late = await hookPost(w, [{ subscriptionId: subs[0].id, clientState: subs[0].clientState, changeType: 'updated' }]);
  expect([late.status, await late.json()]).toEqual([202, { outcome: 'ignored' }]);
  expect(g.calls.length).toBe(calls);
});

test('removing a member disconnects their Microsoft account: subscriptions deleted, connection gone', async () => {
  const g = mw.g();
  const MEMBER = 'member@contoso.example';
  g.addCalendar(MEMBER, { id: 'AAMkMember=' });
  const s = await createSession(w.tdb.db, { userId: mw.ctx.memberId });
  const back = await connectMicrosoftAs(client(w.app.baseUrl, s.token), MEMBER);
  expect(back).toBe(200);
  const row = (await w.tdb.db('calendar_connections').where({ account_email: MEMBER }).first())!;
  await waitForSync(w, row.id, 0, 'ok');
  await eventually(() => [...g.subscriptions.values()].some((x) => x.calendarId === 'AAMkMember='), 'the member’s subscription');
  expect((await w.session.delete(`/api/v1/team/members/${mw.ctx.memberId}`)).status).toBe(204);
  await signalSyncNow(w.app.deps, row);
  await eventually(async () => !(await w.tdb.db('calendar_connections').where({ id: row.id }).first()), 'the connection gone');
  expect([...g.subscriptions.values()].some((x) => x.calendarId === 'AAMkMember=')).toBe(false);
});

async function connectMicrosoftAs(session: ReturnType<typeof client>, loginAs: string): Promise<number> {
  const started = await session.post('/api/v1/microsoft-calendar/authorize', {});
  const authorize = new URL(started.body.data.authorize_url);
  authorize.searchParams.set('login_as', loginAs);
  return (await fetch((await fetch(authorize, { redirect: 'manual' })).headers.get('location')!)).status;
}
