/**
 * Bookings written to Google Calendar, end to end (docs/calendars.md "Google Calendar", "Writing
 * bookings"): the public booking endpoint, the booking and cleanup workflows on the Temporal test
 * server, and the stand-in of Google (test/helpers/google-standin.ts, not Google) read back.
 */
import { googleEventIdOf } from '../../core/calendars/google-events';
import { meetingUid } from '../../domain/ics';
import { startGoogleStandin, type GoogleStandin } from '../helpers/google-standin';
import { client } from '../helpers/http';
import { eventually } from '../helpers/smtp';
import { smtpActivities } from './provider-support';
import { useApiWorld } from '../helpers/world';
import { bookHoursAhead, publishedEventType } from '../scheduling/helpers';
import { CLIENT, connectGoogle, waitForGoogleSync } from './google-support';

const HOUR = 3_600_000;
const OWNER = 'writer@gmail.example';
const TEAM_CAL = 'team-bookings@group.calendar.google.com';
const HOLIDAYS = 'holidays@group.v.calendar.google.com';
let g: GoogleStandin;
beforeAll(async () => {
  g = await startGoogleStandin(CLIENT);
});
afterAll(() => g?.close());

const w = useApiWorld({
  smtp: true,
  temporal: 'time-skipping',
  available: true,
  // The booking answer waits for the write (10 s: a slow machine still answers Google's event).
  env: () => ({ ...g.env(), BOOKING_EVENT_WAIT_MS: '10000' }),
  worker: (): object => smtpActivities(w),
});
const api = () => client(w.app.baseUrl, w.team.apiKey);

let connectionId: string;
const calendarIds: Record<string, string> = {};

beforeAll(async () => {
  g.addCalendar(OWNER, { id: OWNER, summary: 'Writer', primary: true });
  g.addCalendar(OWNER, { id: TEAM_CAL, summary: 'Team bookings', accessRole: 'writer' });
  g.addCalendar(OWNER, { id: HOLIDAYS, summary: 'Holidays', accessRole: 'reader' });
  expect((await connectGoogle(w, OWNER)).status).toBe(200);
  connectionId = (await w.tdb.db('calendar_connections').where({ kind: 'google' }).first())!.id;
  const c = await waitForGoogleSync(w, connectionId, 0, 'ok');
  for (const cal of c.calendars as Array<{ id: string; name: string }>) calendarIds[cal.name] = cal.id;
  const chosen = await w.session.patch(`/api/v1/calendar-connections/${connectionId}`, { booking_calendar_id: calendarIds.Writer });
  expect(chosen.status).toBe(200);
}, 60_000);

/** Our events on a calendar of the stand-in that are not deleted. */
const live = (calendarId: string) => g.events(calendarId).filter((e) => e.status !== 'cancelled');
const eventFor = (meetingId: string, calendarId = OWNER) =>
  eventually(() => g.events(calendarId).find((e) => e.id === googleEventIdOf(meetingUid(meetingId))), `the event of ${meetingId}`, 45_000);
const writesTo = (calendarId: string, method: string) =>
  g.calls.filter((c) => c.method === method && c.path.startsWith(`/calendar/v3/calendars/${encodeURIComponent(calendarId)}/events`));
const book = (hoursAhead: number, eventType: Record<string, unknown> = {}) =>
  bookHoursAhead(w.app.baseUrl, w.team, { hoursAhead, eventType, attendeeEmail: 'ada@example.com' });
/** Our own answer: the meeting's .ics link (not Google's event). */
const OWN_LINK = /\/api\/calendar\/feeds\/calm_[^/]+\.ics$/;

test('a Google calendar the account only reads cannot be the booking calendar; a writable one can', async () => {
  const res = await w.session.patch(`/api/v1/calendar-connections/${connectionId}`, { booking_calendar_id: calendarIds.Holidays });
  expect(res.status).toBe(400);
  expect(res.body.error.details[0]).toMatchObject({
    path: 'body.booking_calendar_id',
    message: 'this calendar is read-only on the server',
  });
  const c = (await w.session.get(`/api/v1/calendar-connections/${connectionId}`)).body.data;
  expect(c.calendars.filter((x: { is_booking_calendar: boolean }) => x.is_booking_calendar).map((x: { name: string }) => x.name)).toEqual([
    'Writer',
  ]);
});

test('a booking becomes exactly one event with its attendees, sendUpdates=none, and the meeting links to its htmlLink', async () => {
  const from = g.calls.length;
  const waits = jest.spyOn(w.app.deps.calendarWrites, 'until');
  const { res, startMs } = await book(50);
  expect(res.status).toBe(201);
  const id: string = res.body.meeting.id;
  const ev = await eventFor(id);
  // The 201 waited for the worker's write and answers Google's event (issue 38 item 6).
  expect(waits).toHaveBeenCalledTimes(1);
  waits.mockRestore();
  expect(res.body.event).toEqual({
    id: ev.id,
    summary: ev.summary,
    start: new Date(startMs).toISOString(),
    end: new Date(startMs + 30 * 60_000).toISOString(),
    htmlLink: ev.htmlLink,
  });
  expect(ev.start.dateTime && Date.parse(ev.start.dateTime)).toBe(startMs);
  expect(ev.attendees?.map((a) => a.email)).toEqual(['ada@example.com']);
  expect(ev.summary).toContain('Ada Attendee');
  const inserts = writesTo(OWNER, 'POST').filter((c) => g.calls.indexOf(c) >= from);
  expect(inserts).toHaveLength(1);
  expect(inserts[0].query).toMatchObject({ sendUpdates: 'none', conferenceDataVersion: '1' });
  expect(inserts[0].body.id).toBe(ev.id);
  const rec = await eventually(
    () => w.tdb.db('meeting_calendar_writes').where({ meeting_id: id, state: 'written' }).first(),
    'the write recorded',
  );
  expect(rec).toMatchObject({ provider_event_id: ev.id, html_url: ev.htmlLink, provider_ical_uid: `${ev.id}@google.com` });
  // The team's API shows the host the event at Google.
  expect((await api().get(`/api/v1/meetings/${id}`)).body.data.calendar_link).toBe(ev.htmlLink);
  expect(live(OWNER).filter((e) => e.id === ev.id)).toHaveLength(1);
});

test('an insert whose answer is lost (the connection dropped after Google stored it) is retried into a 409, then patched: one event', async () => {
  g.faults.dropInserts = 1;
  const from = g.calls.length;
  const { res } = await book(54);
  const id: string = res.body.meeting.id;
  const eventId = googleEventIdOf(meetingUid(id));
  await eventually(
    () => w.tdb.db('meeting_calendar_writes').where({ meeting_id: id, state: 'written' }).first(),
    'the write recorded',
    45_000,
  );
  const mine = g.calls.slice(from).filter((c) => c.path.includes(`/events`) && (c.body?.id === eventId || c.path.endsWith(`/${eventId}`)));
  expect(mine.map((c) => c.method)).toEqual(['POST', 'POST', 'PATCH']); // dropped, 409 duplicate, patched
  expect(g.events(OWNER).filter((e) => e.id === eventId)).toHaveLength(1);
  expect(g.faults.dropInserts).toBe(0);
});

test("variant B: the meeting's calendar_link in the 201 is Google's htmlLink", async () => {
  const { eventTypeId } = await publishedEventType(w.app.baseUrl, w.team, {}, { duration_minutes: 30, start_time_increment: 60 });
  const startMs = Math.ceil((Date.now() + 86 * HOUR) / HOUR) * HOUR;
  const res = await client(w.app.baseUrl).post('/api/calendar/book', {
    event_type_id: eventTypeId,
    start_time: new Date(startMs).toISOString(),
    end_time: new Date(startMs + 30 * 60_000).toISOString(),
    timezone: 'UTC',
    name: 'Bo Booker',
    email: 'bo@example.com',
  });
  expect(res.status).toBe(201);
  const ev = await eventFor(res.body.data.id);
  expect(res.body.data.calendar_link).toBe(ev.htmlLink);
});

test('Google holding the insert past BOOKING_EVENT_WAIT_MS: the 201 answers our own event; the event is written once Google answers', async () => {
  const configured = w.app.config.BOOKING_EVENT_WAIT_MS;
  w.app.config.BOOKING_EVENT_WAIT_MS = 300;
  g.hold.on = true;
  let id = '';
  try {
    const from = g.calls.length;
    const { res } = await book(74);
    expect(res.status).toBe(201); // Google never answered: the deadline ended the wait
    id = res.body.meeting.id;
    const eventId = googleEventIdOf(meetingUid(id));
    expect(res.body.event.htmlLink).toMatch(OWN_LINK);
    expect(res.body.event.id).toBe((await w.tdb.db('calendar_events').where({ meeting_id: id }).first())!.id);
    expect(g.events(OWNER).some((e) => e.id === eventId)).toBe(false);
    // The worker's insert is at Google, held there.
    await eventually(() => g.calls.slice(from).some((c) => c.method === 'POST' && c.body?.id === eventId), 'the insert at Google');
  } finally {
    w.app.config.BOOKING_EVENT_WAIT_MS = configured;
    g.hold.release();
  }
  const ev = await eventFor(id);
  const rec = await eventually(
    () => w.tdb.db('meeting_calendar_writes').where({ meeting_id: id, state: 'written' }).first(),
    'the write recorded',
    45_000,
  );
  expect(rec).toMatchObject({ provider_event_id: ev.id, html_url: ev.htmlLink });
});

test('a host without a destination calendar: the answer does not wait and gives our own event', async () => {
  const { db } = w.tdb;
  // One row (the booking calendar): an update of all the connection's rows could deadlock with a sync rewriting them.
  await db('calendar_connection_calendars').where({ id: calendarIds.Writer }).update({ is_booking_calendar: false });
  const waits = jest.spyOn(w.app.deps.calendarWrites, 'until');
  try {
    const { res } = await book(78);
    expect(res.status).toBe(201);
    expect(waits).not.toHaveBeenCalled();
    expect(res.body.event.htmlLink).toMatch(OWN_LINK);
    expect(res.body.event.id).toBe((await db('calendar_events').where({ meeting_id: res.body.meeting.id }).first())!.id);
  } finally {
    waits.mockRestore();
    await db('calendar_connection_calendars').where({ id: calendarIds.Writer }).update({ is_booking_calendar: true });
  }
});

test('a reschedule patches the same event; a cancel deletes it', async () => {
  const { res, startMs } = await book(58);
  const id: string = res.body.meeting.id;
  const first = await eventFor(id);
  const newStart = startMs + 24 * HOUR;
  const moved = await api().patch(`/api/v1/meetings/${id}`, { start_time: new Date(newStart).toISOString() });
  expect(moved.status).toBe(200);
  const newId: string = moved.body.data.rescheduled_to_id;
  await eventually(
    () => g.events(OWNER).find((e) => e.id === first.id && Date.parse(e.start.dateTime ?? '') === newStart),
    'the same event moved',
    45_000,
  );
  expect(writesTo(OWNER, 'PATCH').some((c) => c.path.endsWith(`/${first.id}`) && c.query.sendUpdates === 'none')).toBe(true);
  const rec = await eventually(
    () => w.tdb.db('meeting_calendar_writes').where({ meeting_id: newId, state: 'written' }).first(),
    'the new meeting owns the event',
  );
  expect(rec.provider_event_id).toBe(first.id); // same UID, same event
  expect(live(OWNER).filter((e) => Date.parse(e.start.dateTime ?? '') === startMs)).toHaveLength(0);

  expect((await api().patch(`/api/v1/meetings/${newId}`, { status: 'cancelled' })).status).toBe(200);
  await eventually(() => g.events(OWNER).find((e) => e.id === first.id)?.status === 'cancelled', 'the event deleted', 45_000);
  const deletes = writesTo(OWNER, 'DELETE').filter((c) => c.path.endsWith(`/${first.id}`));
  expect(deletes).toHaveLength(1);
  expect(deletes[0].query.sendUpdates).toBe('none');
});

test('a cancel of an event the host already deleted at Google (410) counts as done', async () => {
  const { res } = await book(62);
  const id: string = res.body.meeting.id;
  const ev = await eventFor(id);
  await eventually(() => w.tdb.db('meeting_calendar_writes').where({ meeting_id: id, state: 'written' }).first(), 'the write recorded');
  await g.deleteEvent(OWNER, ev.id, false);
  expect((await api().patch(`/api/v1/meetings/${id}`, { status: 'cancelled' })).status).toBe(200);
  await eventually(
    async () => (await w.tdb.db('meeting_calendar_writes').where({ meeting_id: id }).first())?.state === 'removed',
    'the record removed',
    45_000,
  );
  const deletes = writesTo(OWNER, 'DELETE').filter((c) => c.path.endsWith(`/${ev.id}`));
  expect(deletes).toHaveLength(1); // answered 410, not retried
  expect((await w.tdb.db('calendar_connections').where({ id: connectionId }).first())!.status).toBe('ok');
});

test('an event the host deleted at Google (a patch of it is refused) is made again under the next id of the booking', async () => {
  const { res, startMs } = await book(70);
  const id: string = res.body.meeting.id;
  const ev = await eventFor(id);
  await eventually(() => w.tdb.db('meeting_calendar_writes').where({ meeting_id: id, state: 'written' }).first(), 'the write recorded');
  await g.deleteEvent(OWNER, ev.id, false);
  const newStart = startMs + 24 * HOUR;
  const moved = await api().patch(`/api/v1/meetings/${id}`, { start_time: new Date(newStart).toISOString() });
  expect(moved.status).toBe(200);
  const again = await eventually(
    () => g.events(OWNER).find((e) => e.id === `${ev.id}1` && e.status === 'confirmed'),
    'the event made again',
    45_000,
  );
  expect(Date.parse(again.start.dateTime ?? '')).toBe(newStart);
  const rec = await eventually(
    () => w.tdb.db('meeting_calendar_writes').where({ meeting_id: moved.body.data.rescheduled_to_id, state: 'written' }).first(),
    'the new meeting recorded',
  );
  expect(rec.provider_event_id).toBe(again.id);
  expect(live(OWNER).filter((e) => e.id.startsWith(ev.id))).toHaveLength(1);
  // The dead id was checked with events.get, whose reference takes no conferenceDataVersion (nor sendUpdates).
  const gets = writesTo(OWNER, 'GET').filter((c) => c.path.endsWith(`/${ev.id}`));
  expect(gets.length).toBeGreaterThan(0);
  for (const c of gets)
    expect(Object.keys(c.query).filter((k) => !['alwaysIncludeEmail', 'maxAttendees', 'timeZone'].includes(k))).toEqual([]);
});

test("an event type's own destination calendar takes its bookings; a calendar that cannot take them is a 400 naming the field", async () => {
  const { pageId } = await publishedEventType(w.app.baseUrl, w.team);
  const bad = await api().post(`/api/v1/scheduling-pages/${pageId}/event-types`, {
    title: 'To holidays',
    destination_calendar_id: calendarIds.Holidays,
  });
  expect(bad.status).toBe(400);
  expect(bad.body.error.details[0].path).toBe('body.destination_calendar_id');
  const unknown = await api().post(`/api/v1/scheduling-pages/${pageId}/event-types`, {
    title: 'Nowhere',
    destination_calendar_id: '00000000-0000-4000-8000-000000000000',
  });
  expect(unknown.status).toBe(400);
  expect(unknown.body.error.details[0].path).toBe('body.destination_calendar_id');

  const { res } = await book(66, { destination_calendar_id: calendarIds['Team bookings'] });
  expect(res.status).toBe(201);
  const id: string = res.body.meeting.id;
  const ev = await eventFor(id, TEAM_CAL);
  expect(ev.attendees?.map((a) => a.email)).toEqual(['ada@example.com']);
  expect(g.events(OWNER).some((e) => e.id === ev.id)).toBe(false);
  const types = await w.tdb.db('event_types').where({ destination_calendar_id: calendarIds['Team bookings'] });
  expect(types).toHaveLength(1);
  // Still one booking calendar for the user.
  expect(await w.tdb.db('calendar_connection_calendars').where({ user_id: w.team.userId, is_booking_calendar: true })).toHaveLength(1);
});

test('Google no longer accepting the connection marks it needs_reauth and emails the host exactly once', async () => {
  const reauthMails = () => w.smtp.messages.filter((m) => m.subject === 'Connect your Google Calendar again');
  g.faults.rejectAccess = true; // every API call 401, also after a forced refresh
  try {
    expect((await w.session.post(`/api/v1/calendar-connections/${connectionId}/sync`)).status).toBe(202);
    // Any time: a sync already running when the fault was set (the workflow's own interval, which
    // time-skipping brings on) may be the one that meets it; the sync asked for then finds needs_reauth.
    const c = await waitForGoogleSync(w, connectionId, 0, 'needs_reauth');
    await eventually(() => reauthMails().length === 1, 'the email to the host');
    expect(reauthMails()[0].to?.text).toBe(w.team.email);
    expect(reauthMails()[0].text).toContain(OWNER);
    const shown = (await w.session.get(`/api/v1/calendar-connections/${c.id}`)).body.data;
    expect(shown.status).toBe('needs_reauth');
    expect(shown.reauth_email_sent_at).not.toBeNull();
    // Another sync, failing the same way, sends nothing more.
    const since = Date.now();
    expect((await w.session.post(`/api/v1/calendar-connections/${connectionId}/sync`)).status).toBe(202);
    await waitForGoogleSync(w, connectionId, since, 'needs_reauth');
    expect(reauthMails()).toHaveLength(1);
  } finally {
    g.faults.rejectAccess = false;
  }
});
