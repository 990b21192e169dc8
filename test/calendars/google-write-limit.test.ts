/**
 * Calendar writes in flight per account are bounded across the workers (docs/calendars.md "Limits",
 * services/calendars/write-leases.ts): with CALENDAR_WRITES_PER_ACCOUNT=2 and a worker that runs
 * twenty activities at once, six bookings for one Google host never have more than two inserts at
 * Google (the stand-in, test/helpers/google-standin.ts, holds them unanswered and counts), the others
 * are refused a slot and retried; once Google answers, every booking has its one event.
 */
import type { Worker } from '@temporalio/worker';
import { googleEventIdOf } from '../../core/calendars/google-events';
import { meetingUid } from '../../domain/ics';
import { bookingWorkflowId } from '../../workflows/scheduling/contract';
import { startGoogleStandin, type GoogleStandin } from '../helpers/google-standin';
import { eventually } from '../helpers/smtp';
import { createTestWorker } from '../helpers/temporal';
import { useApiWorld } from '../helpers/world';
import { bookHoursAhead } from '../scheduling/helpers';
import { CLIENT, connectGoogle, waitForGoogleSync } from './google-support';
import { smtpActivities } from './provider-support';

const OWNER = 'busy-host@gmail.example';
let g: GoogleStandin;
beforeAll(async () => {
  g = await startGoogleStandin(CLIENT);
});
afterAll(() => g?.close());

const w = useApiWorld({
  smtp: true,
  temporal: 'local',
  available: true,
  env: () => ({ ...g.env(), CALENDAR_WRITES_PER_ACCOUNT: '2' }),
});

let connectionId: string;
beforeAll(async () => {
  const worker: Worker = await createTestWorker(w.env, smtpActivities(w), { maxConcurrentActivityTaskExecutions: 20 });
  const running = worker.run();
  w.onTeardown(async () => {
    worker.shutdown();
    await running;
  });
  g.addCalendar(OWNER, { id: OWNER, summary: 'Busy host', primary: true });
  expect((await connectGoogle(w, OWNER)).status).toBe(200);
  connectionId = (await w.tdb.db('calendar_connections').where({ kind: 'google' }).first())!.id;
  const c = await waitForGoogleSync(w, connectionId, 0, 'ok');
  const chosen = await w.session.patch(`/api/v1/calendar-connections/${connectionId}`, { booking_calendar_id: c.calendars[0].id });
  expect(chosen.status).toBe(200);
}, 60_000);

/** The booking workflow's pending write activity refused a slot at least once. */
async function refusedASlot(meetingId: string): Promise<boolean> {
  const d = await w.env.client.workflow.getHandle(bookingWorkflowId(meetingId)).describe();
  return (d.raw.pendingActivities ?? []).some(
    (a) => a.activityType?.name === 'writeMeetingToCalendar' && a.lastFailure?.applicationFailureInfo?.type === 'CalendarWriteBusy',
  );
}

test('six bookings for one Google account: at most two inserts in flight at once, then one event each', async () => {
  g.hold.on = true;
  const meetingIds: string[] = [];
  for (let i = 0; i < 6; i++) {
    const { res } = await bookHoursAhead(w.app.baseUrl, w.team, { hoursAhead: 30 + 2 * i, attendeeEmail: `guest${i}@example.com` });
    expect(res.status).toBe(201);
    meetingIds.push(res.body.meeting.id);
  }
  const eventIds = meetingIds.map((id) => googleEventIdOf(meetingUid(id)));
  const parked = (body: { id?: string }) => g.calls.some((c) => c.method === 'POST' && c.body?.id === body.id);

  // Two inserts reach Google and wait there; each of the four other writes has been refused a slot.
  await eventually(() => g.hold.inFlight === 2, 'two inserts held at Google', 30_000);
  const held = meetingIds.filter((_, i) => parked({ id: eventIds[i] }));
  expect(held).toHaveLength(2);
  const waiting = meetingIds.filter((id) => !held.includes(id));
  await eventually(async () => (await Promise.all(waiting.map(refusedASlot))).every(Boolean), 'the other four refused a slot', 30_000);
  expect(await w.tdb.db('calendar_write_leases').where({ connection_id: connectionId })).toHaveLength(2);
  expect(g.hold.maxInFlight).toBe(2);
  expect(g.calls.filter((c) => c.method === 'POST' && eventIds.includes(c.body?.id))).toHaveLength(2);

  g.hold.release();
  const written = await eventually(
    async () => {
      const rows = await w.tdb.db('meeting_calendar_writes').whereIn('meeting_id', meetingIds).where({ state: 'written' });
      return rows.length === 6 ? rows : undefined;
    },
    'six writes recorded',
    60_000,
  );
  expect(written.map((r) => r.provider_event_id).sort()).toEqual([...eventIds].sort());
  expect(g.events(OWNER).filter((e) => e.status !== 'cancelled')).toHaveLength(6);
  for (const id of eventIds) expect(g.calls.filter((c) => c.method === 'POST' && c.body?.id === id)).toHaveLength(1);
  expect(g.hold.maxInFlight).toBe(2);
  // Every lease was given back.
  expect(await w.tdb.db('calendar_write_leases').where({ connection_id: connectionId })).toHaveLength(0);
}, 120_000);
