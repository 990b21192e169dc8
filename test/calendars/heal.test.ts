/**
 * The sync heals itself (docs/calendars.md, "When the sync stops"): "sync now" and a change to a
 * connection reach a workflow that was terminated (signal-with-start); the reconcile (maintenance task
 * 'calendar-reconcile') starts a workflow for every connection without a running one, and marks a
 * connection whose last good sync is older than three intervals `stale`.
 */
import { calendarSyncWorkflowId } from '../../workflows/calendars/contract';
import { reconcileCalendarSyncs } from '../../services/calendars/reconcile';
import { maintenanceTasks } from '../../services/maintenance/tasks';
import { syncIntervalMs } from '../../services/calendars/window';
import { ics, startFeedServer, useCalendarWorld, utc, type FeedServer } from './support';

const w = useCalendarWorld();
let feed: FeedServer;
let id: string;
const START = Date.UTC(2030, 0, 7, 9); // inside no window that matters: the test is about syncing, not busy time

beforeAll(async () => {
  feed = await startFeedServer();
  feed.serve(ics([`UID:heal@test`, `DTSTAMP:${utc(START)}`, `DTSTART:${utc(START)}`, `DTEND:${utc(START + 3600_000)}`]));
  const since = Date.now();
  id = await w.connect({ kind: 'ics_feed', url: `${feed.url}/secret/basic.ics` });
  await w.waitForSync(id, since);
});
afterAll(() => feed.close());

async function terminate(): Promise<void> {
  const handle = w.env.client.workflow.getHandle(calendarSyncWorkflowId(id));
  await handle.terminate('operator test');
  expect((await handle.describe()).status.name).toBe('TERMINATED');
}

const requests = () => feed.requests.filter((r) => r.path === '/secret/basic.ics').length;

it('"sync now" starts the workflow again when it was terminated', async () => {
  await terminate();
  const before = requests();
  const c = await w.syncNow(id);
  expect(c.status).toBe('ok');
  expect(requests()).toBeGreaterThan(before);
  expect((await w.env.client.workflow.getHandle(calendarSyncWorkflowId(id)).describe()).status.name).toBe('RUNNING');
});

it('the reconcile starts a workflow for a connection without one, and the connection syncs again', async () => {
  await terminate();
  const since = Date.now();
  const before = requests();
  const result = await reconcileCalendarSyncs(w.app.deps);
  expect(result.started).toEqual([id]);
  expect(result.failed).toEqual([]);
  const c = await w.waitForSync(id, since);
  expect(c.status).toBe('ok');
  expect(requests()).toBeGreaterThan(before);
  // Running again: the next reconcile leaves it alone.
  expect((await reconcileCalendarSyncs(w.app.deps)).started).toEqual([]);
});

it('is the task the calendar-reconcile Schedule runs', async () => {
  await terminate();
  const since = Date.now();
  await maintenanceTasks['calendar-reconcile'].run(w.app.deps);
  expect((await w.waitForSync(id, since)).status).toBe('ok');
});

it('a connection whose last good sync is older than three intervals shows stale, until a good sync', async () => {
  const interval = syncIntervalMs(w.app.config.CALENDAR_SYNC_INTERVAL);
  const row = await w.tdb.db('calendar_connections').where({ id }).first();
  const last = row!.last_synced_at!.getTime();
  // Just inside three intervals: not stale.
  let result = await reconcileCalendarSyncs(w.app.deps, { now: new Date(last + 3 * interval - 1000) });
  expect(result.stale).toBe(0);
  expect((await w.api.get(`/api/v1/calendar-connections/${id}`)).body.data.status).toBe('ok');
  result = await reconcileCalendarSyncs(w.app.deps, { now: new Date(last + 3 * interval + 1000) });
  expect(result.stale).toBe(1);
  const res = await w.api.get(`/api/v1/calendar-connections/${id}`);
  expect(res.body.data.status).toBe('stale');
  expect(res.body.data.status_message).toMatch(/^no good sync since \d{4}-\d\d-\d\d \d\d:\d\d UTC \(3 sync intervals\)/);
  const list = await w.api.get('/api/v1/calendar-connections?status=stale');
  expect(list.status).toBe(200);
  expect(list.body.data.map((c: { id: string }) => c.id)).toEqual([id]);
  expect((await w.syncNow(id)).status).toBe('ok');
});

it('a change to a connection reaches a terminated workflow too', async () => {
  await terminate();
  const since = Date.now();
  const res = await w.session.patch(`/api/v1/calendar-connections/${id}`, { name: 'Renamed feed' });
  expect(res.status).toBe(200);
  expect((await w.waitForSync(id, since)).name).toBe('Renamed feed');
  expect((await w.env.client.workflow.getHandle(calendarSyncWorkflowId(id)).describe()).status.name).toBe('RUNNING');
});
