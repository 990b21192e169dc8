import { useApiWorld } from '../helpers/world';
/**
 * Write-back of bookings to the host's CalDAV booking calendar, end to end: bookings through the
 * public endpoint, status changes and reschedules through the API, the booking and cleanup
 * workflows on the Temporal test server, and a real Radicale read back with CalDAV REPORTs.
 */
import ICAL from 'ical.js';
import { createActivities } from '../../activities';
import { buildWorkerDeps } from '../../activities/deps';
import { createMailer } from '../../core/mailer';
import { createSmsSender } from '../../core/sms';
import { icalUidOf, meetingUid } from '../../domain/ics';
import { connectCaldav, type TestCalendarConnection } from '../helpers/calendars';
import { client } from '../helpers/http';
import { useRadicale, type RadicaleObject } from '../helpers/radicale';
import { eventually } from '../helpers/smtp';
import { bookHoursAhead } from '../scheduling/helpers';

const HOUR = 3_600_000;
const radicale = useRadicale({ users: { host: 'host-app-password' } });

let conn: TestCalendarConnection;
let calendarNo = 0;

// Temporal, the app, the team and the worker anew for each test. The worker polls in the
// background; the tests never await a workflow result, so the test server's clock is not skipped
// ahead (the reminders stay days away).
const w = useApiWorld({ smtp: true, temporal: 'time-skipping', available: true, eachTest: true, worker: (): object => activities() });

/** Every activity (the calendar sync workflow runs too, as in production), mail to the test SMTP server. */
function activities() {
  const mailer = createMailer({ SMTP_URL: w.smtp.url, MAIL_FROM: 'Bookings <bookings@example.com>', dataDir: '/tmp/unused' });
  const sms = createSmsSender({ ...w.app.config, TWILIO_ACCOUNT_SID: undefined });
  return createActivities(buildWorkerDeps(w.app.config, w.tdb.db, w.app.deps.outbox, { mailer, sms }));
}

/** The calendar of this test: a new collection on Radicale, so tests never see each other's events. */
let calendarUrl: string;

beforeEach(async () => {
  const s = radicale.server;
  calendarNo++;
  calendarUrl = await s.mkcalendar('host', `bookings-${calendarNo}`, `Bookings ${calendarNo}`);
  conn = await connect(`Bookings ${calendarNo}`);
});

/** Connect the host's Radicale account through the API and choose `calendarName` as the booking calendar. */
const connect = (calendarName: string | null) =>
  connectCaldav(w.app.baseUrl, w.team.session, {
    serverUrl: radicale.server.url,
    username: 'host',
    password: 'host-app-password',
    calendarName,
  });
afterEach(async () => {
  if (!radicale.server.running()) await radicale.server.start();
  // The next test's host (a new team) must not find this test's events as busy time.
  await radicale.server.remove('host', calendarUrl);
});

const api = () => client(w.app.baseUrl, w.team.apiKey);
const objects = (): Promise<RadicaleObject[]> => radicale.server.report('host', calendarUrl);

/** Book through the public endpoint (variant A) `hoursAhead` from now, on the hour. */
async function book(hoursAhead: number, eventType: Record<string, unknown> = {}) {
  return bookHoursAhead(w.app.baseUrl, w.team, { hoursAhead, eventType, attendeeEmail: 'ada@example.com' });
}

function vevent(o: RadicaleObject): ICAL.Component {
  return new ICAL.Component(ICAL.parse(o.data)).getFirstSubcomponent('vevent')!;
}

/** The one object on the calendar once it carries `uid` (and passes `check`). */
async function onCalendar(uid: string, check: (ev: ICAL.Component) => boolean = () => true, what = `event ${uid} on Radicale`) {
  return eventually(
    async () => {
      const all = await objects();
      const mine = all.filter((o) => vevent(o).getFirstPropertyValue('uid') === uid);
      return mine.length === 1 && check(vevent(mine[0])) ? { all, object: mine[0] } : undefined;
    },
    what,
    45_000,
  );
}

async function workflowClosed(id: string): Promise<void> {
  await eventually(
    async () => {
      try {
        return (await w.env.client.workflow.getHandle(id).describe()).status.name === 'COMPLETED';
      } catch {
        return false;
      }
    },
    `workflow ${id} completed`,
    45_000,
  );
}

const startOf = (ev: ICAL.Component) => (ev.getFirstPropertyValue('dtstart') as ICAL.Time).toJSDate().getTime();

describe('write-back to the host booking calendar (Radicale)', () => {
  it('writes a booking as a VEVENT (read back with a REPORT), and its cancellation removes it', async () => {
    const waits = jest.spyOn(w.app.deps.calendarWrites, 'until');
    const { res, startMs } = await book(72);
    expect(res.status).toBe(201);
    // A CalDAV destination: the answer does not wait for the write (google-write.test.ts waits).
    expect(waits).not.toHaveBeenCalled();
    const id: string = res.body.meeting.id;
    const { all, object } = await onCalendar(meetingUid(id));
    expect(all).toHaveLength(1);
    const ev = vevent(object);
    expect(startOf(ev)).toBe(startMs);
    expect(ev.getFirstPropertyValue('status')).toBe('CONFIRMED');
    expect(ev.getFirstPropertyValue('sequence')).toBe(0);
    expect(String(ev.getFirstPropertyValue('summary'))).toContain('Ada Attendee');
    expect(String(ev.getFirstPropertyValue('description'))).toContain('ada@example.com');
    // No ORGANIZER/ATTENDEE: the server must not send invitations of its own, and no METHOD in a stored object.
    expect(ev.getAllProperties('attendee')).toHaveLength(0);
    expect(object.data).not.toMatch(/^METHOD:/m);

    // The record follows the PUT's answer.
    const rec = await eventually(() => w.tdb.db('meeting_calendar_writes').where({ meeting_id: id }).first(), 'the write recorded');
    expect(rec).toMatchObject({
      calendar_id: conn.calendarId,
      connection_id: conn.connectionId,
      uid: meetingUid(id),
      state: 'written',
      sequence: 0,
      etag: object.etag,
    });
    expect(new URL(rec.href).pathname).toBe(object.href);
    expect(rec.html_url).toBe(rec.href);
    // The meeting now opens at the event on the host's server (before: the host's feed).
    expect((await api().get(`/api/v1/meetings/${id}`)).body.data.calendar_link).toBe(rec.html_url);
    // The public answer never named the host's server: the meeting's own .ics link.
    expect(res.body.event.htmlLink).toMatch(/\/api\/calendar\/feeds\/calm_/);

    const cancel = await api().patch(`/api/v1/meetings/${id}`, { status: 'cancelled' });
    expect(cancel.status).toBe(200);
    await eventually(async () => (await objects()).length === 0, 'the event removed from Radicale', 45_000);
    await eventually(
      async () => (await w.tdb.db('meeting_calendar_writes').where({ meeting_id: id }).first())?.state === 'removed',
      'the write marked removed',
    );
  });

  it('DELETE of a meeting removes its event too', async () => {
    const { res } = await book(48);
    const id: string = res.body.meeting.id;
    await onCalendar(meetingUid(id));
    expect((await api().delete(`/api/v1/meetings/${id}`)).status).toBe(204);
    await eventually(async () => (await objects()).length === 0, 'the event removed after DELETE', 45_000);
  });

  it('a pending request is written TENTATIVE, and the confirmation updates it to CONFIRMED', async () => {
    const { res } = await book(96, { requires_confirmation: true });
    expect(res.status).toBe(201);
    const id: string = res.body.meeting.id;
    expect(res.body.meeting.status).toBe('pending_confirmation');
    await onCalendar(meetingUid(id), (ev) => ev.getFirstPropertyValue('status') === 'TENTATIVE', 'a TENTATIVE event');
    expect((await api().patch(`/api/v1/meetings/${id}`, { status: 'scheduled' })).status).toBe(200);
    const { all } = await onCalendar(meetingUid(id), (ev) => ev.getFirstPropertyValue('status') === 'CONFIRMED', 'the event CONFIRMED');
    expect(all).toHaveLength(1);
  });

  it('Radicale down during a booking: the meeting is created (201), the connection shows the error, and the event is written once Radicale is back', async () => {
    await radicale.server.stop();
    const { res } = await book(72);
    expect(res.status).toBe(201);
    const id: string = res.body.meeting.id;
    // The rest of the workflow goes on: the confirmation email is sent while the calendar is down.
    await eventually(
      () => w.smtp.messages.some((m) => m.headers.get('x-meeting-id') === id && m.headers.get('x-meeting-email') === 'confirmation'),
      'the confirmation email',
    );
    const failing = await eventually(async () => {
      const c = await w.tdb.db('calendar_connections').where({ id: conn.connectionId }).first();
      return c!.status === 'error' ? c : undefined;
    }, 'the connection in error');
    expect(failing.status_message).toMatch(/^could not write a booking to the calendar "Bookings \d+": .*refused the connection/);
    expect(await w.tdb.db('meeting_calendar_writes').where({ meeting_id: id })).toHaveLength(0);

    await radicale.server.start();
    await onCalendar(meetingUid(id));
    await eventually(
      async () => (await w.tdb.db('calendar_connections').where({ id: conn.connectionId }).first())!.status === 'ok',
      'the connection ok again after the write',
    );
    expect((await w.tdb.db('calendar_connections').where({ id: conn.connectionId }).first())!.status_message).toBeNull();
  });

  it('a retried write (also one whose record was lost) gives no duplicate', async () => {
    const { res } = await book(72);
    const id: string = res.body.meeting.id;
    const first = await onCalendar(meetingUid(id));
    await eventually(() => w.tdb.db('meeting_calendar_writes').where({ meeting_id: id }).first(), 'the workflow’s write recorded');
    const acts = activities();
    expect(await acts.writeMeetingToCalendar(id)).toBe('written');
    // The answer of an earlier PUT lost: no record, the object exists (If-None-Match: * answers 412).
    await w.tdb.db('meeting_calendar_writes').where({ meeting_id: id }).delete();
    expect(await acts.writeMeetingToCalendar(id)).toBe('written');
    // A stale ETag on record (the host edited the event meanwhile): If-Match answers 412, the write still lands once.
    await w.tdb.db('meeting_calendar_writes').where({ meeting_id: id }).update({ etag: '"stale"' });
    expect(await acts.writeMeetingToCalendar(id)).toBe('written');
    const after = await objects();
    expect(after).toHaveLength(1);
    expect(after[0].href).toBe(first.object.href);
    const rec = await w.tdb.db('meeting_calendar_writes').where({ meeting_id: id }).first();
    expect(rec!.etag).toBe(after[0].etag);
  });

  it('a reschedule moves the event (same UID, SEQUENCE + 1); the old meeting’s cleanup leaves it alone', async () => {
    const { res, startMs } = await book(72);
    const id: string = res.body.meeting.id;
    const uid = meetingUid(id);
    const first = await onCalendar(uid);

    const newStart = startMs + 24 * HOUR;
    const moved = await api().patch(`/api/v1/meetings/${id}`, { start_time: new Date(newStart).toISOString() });
    expect(moved.status).toBe(200);
    const newId: string = moved.body.data.rescheduled_to_id;
    const newMeeting = await w.tdb.db('meetings').where({ id: newId }).first();
    expect(icalUidOf(newMeeting!)).toBe(uid);

    const { all, object } = await onCalendar(uid, (ev) => startOf(ev) === newStart, 'the event moved to the new time');
    expect(all).toHaveLength(1);
    expect(object.href).toBe(first.object.href);
    expect(vevent(object).getFirstPropertyValue('sequence')).toBe(newMeeting!.ical_sequence);
    expect(newMeeting!.ical_sequence).toBe(1);
    const states = async () =>
      (await w.tdb.db('meeting_calendar_writes').whereIn('meeting_id', [id, newId]).orderBy('created_at')).map(
        (r: { meeting_id: string; state: string }) => [r.meeting_id, r.state],
      );
    // The old meeting's record hands the event over to the new one.
    await eventually(
      async () =>
        JSON.stringify(await states()) ===
        JSON.stringify([
          [id, 'moved'],
          [newId, 'written'],
        ]),
      'the old write moved, the new one written',
    );

    // Deleting the old (rescheduled) meeting runs its cleanup: the event stays.
    expect((await api().delete(`/api/v1/meetings/${id}`)).status).toBe(204);
    await workflowClosed(`meeting-cleanup-${id}`);
    expect((await objects()).map((o) => o.href)).toEqual([first.object.href]);

    // Cancelling the new one removes it.
    expect((await api().patch(`/api/v1/meetings/${newId}`, { status: 'cancelled' })).status).toBe(200);
    await eventually(async () => (await objects()).length === 0, 'the moved event removed on cancel', 45_000);
  });

  it('a host without a booking calendar: nothing is written', async () => {
    const none = await client(w.app.baseUrl, w.team.session).patch(`/api/v1/calendar-connections/${conn.connectionId}`, {
      booking_calendar_id: null,
    });
    expect(none.status).toBe(200);
    const { res } = await book(72);
    expect(res.status).toBe(201);
    const id: string = res.body.meeting.id;
    await eventually(
      () => w.smtp.messages.some((m) => m.headers.get('x-meeting-id') === id && m.headers.get('x-meeting-email') === 'confirmation'),
      'the confirmation email',
    );
    expect(await activities().writeMeetingToCalendar(id)).toBe('no_calendar');
    expect(await objects()).toEqual([]);
    expect(await w.tdb.db('meeting_calendar_writes').where({ meeting_id: id })).toHaveLength(0);
  });
});
