/**
 * The limits of Google writes (docs/calendars.md "Limits", "Writing bookings"), against the stand-in
 * of Google (test/helpers/google-standin.ts) on a real Temporal dev server (real time: the delays are
 * measured):
 * - writes in flight per account are bounded across the workers (services/calendars/write-leases.ts):
 *   with CALENDAR_WRITES_PER_ACCOUNT=2 and a worker that runs twenty activities at once, six bookings
 *   for one host never have more than two inserts at Google (the stand-in holds them unanswered and
 *   counts), the others are refused a slot and retried; once Google answers, each has its one event;
 * - a 429 with Retry-After, and a 403 `rateLimitExceeded`, are retried after Google's delay
 *   (Temporal's nextRetryDelay), not the retry policy's;
 * - a 401 that survives a forced token refresh marks the connection needs_reauth and is not retried;
 *   the booking stays.
 */
import type { temporal } from '@temporalio/proto';
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

const HOUR = 3_600_000;
const insertsOf = (eventId: string) => g.calls.filter((c) => c.method === 'POST' && c.body?.id === eventId);

/** The booking workflow's pending write activity refused a slot at least once. */
async function refusedASlot(meetingId: string): Promise<boolean> {
  // (The outbox starts the workflow just after the booking's 201: until then describe fails.)
  const d = await w.env.client.workflow
    .getHandle(bookingWorkflowId(meetingId))
    .describe()
    .catch(() => null);
  return (d?.raw.pendingActivities ?? []).some(
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
  try {
    // Two inserts reach Google and wait there; each of the four other writes has been refused a slot.
    await eventually(() => g.hold.inFlight === 2, 'two inserts held at Google', 30_000);
    const held = meetingIds.filter((_, i) => insertsOf(eventIds[i]).length > 0);
    expect(held).toHaveLength(2);
    const waiting = meetingIds.filter((id) => !held.includes(id));
    await eventually(async () => (await Promise.all(waiting.map(refusedASlot))).every(Boolean), 'the other four refused a slot', 30_000);
    expect(await w.tdb.db('calendar_write_leases').where({ connection_id: connectionId })).toHaveLength(2);
    expect(g.hold.maxInFlight).toBe(2);
    expect(g.calls.filter((c) => c.method === 'POST' && eventIds.includes(c.body?.id))).toHaveLength(2);
  } finally {
    g.hold.release();
  }
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
  for (const id of eventIds) expect(insertsOf(id)).toHaveLength(1);
  expect(g.hold.maxInFlight).toBe(2);
  // Every lease was given back.
  expect(await w.tdb.db('calendar_write_leases').where({ connection_id: connectionId })).toHaveLength(0);
}, 120_000);

/** Google's error bodies, as its page "Handle API errors" shows them (docs/calendars.md "Pages followed"). */
const googleError = (code: number, domain: string, reason: string, message: string) => ({
  error: { errors: [{ domain, reason, message }], code, message },
});

test("a 429 with Retry-After is retried after Google's delay, a 403 rateLimitExceeded after the short backoff; one event", async () => {
  // The write's retry policy would wait 5 s, then 10 s: Google's 7 s, then a short jittered backoff (1–1.5 s; under 9 s on a loaded machine), tell them apart.
  g.faults.failInserts.push(
    { status: 429, headers: { 'retry-after': '7' }, body: googleError(429, 'usageLimits', 'rateLimitExceeded', 'Rate Limit Exceeded') },
    { status: 403, body: googleError(403, 'usageLimits', 'rateLimitExceeded', 'Rate Limit Exceeded') },
  );
  const { res } = await bookHoursAhead(w.app.baseUrl, w.team, { hoursAhead: 60, attendeeEmail: 'later@example.com' });
  expect(res.status).toBe(201);
  const meetingId: string = res.body.meeting.id;
  const eventId = googleEventIdOf(meetingUid(meetingId));
  await eventually(
    () => w.tdb.db('meeting_calendar_writes').where({ meeting_id: meetingId, state: 'written' }).first(),
    'the write recorded',
    60_000,
  );
  const tries = insertsOf(eventId);
  expect(tries).toHaveLength(3); // 429, 403, stored
  expect(tries[1].at - tries[0].at).toBeGreaterThanOrEqual(6_900);
  expect(tries[2].at - tries[1].at).toBeGreaterThanOrEqual(900);
  expect(tries[2].at - tries[1].at).toBeLessThan(9_000);
  expect(g.faults.failInserts).toHaveLength(0);
  expect(g.events(OWNER).filter((e) => e.id === eventId)).toHaveLength(1);
  // The error the failures showed on the connection is cleared by the write that worked (just after its record).
  await eventually(
    async () => await w.tdb.db('calendar_connections').where({ id: connectionId, status: 'ok' }).whereNull('status_message').first(),
    'the connection ok again',
  );
}, 60_000);

test('a 401 that survives a forced token refresh: needs_reauth, the write is not retried, the booking stays', async () => {
  const unauthorized = {
    status: 401,
    headers: { 'www-authenticate': 'Bearer realm="https://accounts.google.com/"' },
    body: googleError(401, 'global', 'authError', 'Invalid Credentials'),
  };
  g.faults.failInserts.push(unauthorized, unauthorized);
  const from = g.calls.length;
  const { res } = await bookHoursAhead(w.app.baseUrl, w.team, { hoursAhead: 64, attendeeEmail: 'refused@example.com' });
  expect(res.status).toBe(201);
  const meetingId: string = res.body.meeting.id;
  const eventId = googleEventIdOf(meetingUid(meetingId));
  // The write activity's one and final failure, in the booking's history.
  const history = () => w.env.client.workflow.getHandle(bookingWorkflowId(meetingId)).fetchHistory();
  const failedWrite = (events: temporal.api.history.v1.IHistoryEvent[]) =>
    events.find((e) => e.activityTaskFailedEventAttributes)?.activityTaskFailedEventAttributes ?? undefined;
  // (The outbox starts the workflow just after the 201: until then there is no history.)
  const failure = await eventually(async () => failedWrite((await history().catch(() => null))?.events ?? []), 'the write failed', 30_000);
  expect(failure.failure?.applicationFailureInfo).toMatchObject({ type: 'CalendarNeedsReauth', nonRetryable: true });
  const events = (await history()).events ?? [];
  const started = events.find((e) => e.eventId?.toString() === failure.startedEventId?.toString());
  expect(started?.activityTaskStartedEventAttributes?.attempt).toBe(1);
  // Two inserts: the first, and one after a forced refresh; then no more.
  const calls = g.calls.slice(from);
  expect(insertsOf(eventId)).toHaveLength(2);
  const [first, second] = insertsOf(eventId).map((c) => calls.indexOf(c));
  expect(calls.slice(first, second).some((c) => c.path === '/token' && c.body?.grant_type === 'refresh_token')).toBe(true);
  expect(g.events(OWNER).some((e) => e.id === eventId)).toBe(false);
  expect((await w.tdb.db('calendar_connections').where({ id: connectionId }).first())!.status).toBe('needs_reauth');
  expect(await w.tdb.db('meeting_calendar_writes').where({ meeting_id: meetingId })).toHaveLength(0);
  const meeting = (await w.api.get(`/api/v1/meetings/${meetingId}`)).body.data;
  expect(meeting.status).toBe('scheduled');
  expect(Date.parse(meeting.start_time)).toBeGreaterThan(Date.now() + 60 * HOUR);
}, 60_000);
