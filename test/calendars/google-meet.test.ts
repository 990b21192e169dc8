/**
 * The Google Meet video adapter, end to end (docs/calendars.md "Google Meet"): VIDEO_PROVIDER_1_ADAPTER
 * is `google_meet`; the booking workflow's room step writes the event with a conference request to
 * the host's Google destination calendar (the stand-in, test/helpers/google-standin.ts, not Google),
 * and the link Google answers is the meeting's link in its emails. An event type whose hosts do not
 * all have a Google destination calendar is refused when saved.
 */
import { googleEventIdOf } from '../../core/calendars/google-events';
import { meetingUid } from '../../domain/ics';
import { addMember } from '../../services/team';
import { startGoogleStandin, type GoogleStandin } from '../helpers/google-standin';
import { client } from '../helpers/http';
import { eventually } from '../helpers/smtp';
import { smtpActivities } from './provider-support';
import { useApiWorld } from '../helpers/world';
import { bookHoursAhead } from '../scheduling/helpers';
import { CLIENT, connectGoogle, waitForGoogleSync } from './google-support';

const HOUR = 3_600_000;
const OWNER = 'meet-host@gmail.example';
let g: GoogleStandin;
beforeAll(async () => {
  g = await startGoogleStandin(CLIENT);
});
afterAll(() => g?.close());

const w = useApiWorld({
  smtp: true,
  temporal: 'time-skipping',
  available: true,
  // The booking answer waits for the write (10 s: a slow machine still answers with the Meet link).
  env: () => ({ ...g.env(), VIDEO_PROVIDER_1_ADAPTER: 'google_meet', BOOKING_EVENT_WAIT_MS: '10000' }),
  worker: (): object => smtpActivities(w),
});
const api = () => client(w.app.baseUrl, w.team.apiKey);
let connectionId: string;
let writerCalendarId: string;

beforeAll(async () => {
  g.addCalendar(OWNER, { id: OWNER, summary: 'Meet host', primary: true });
  expect((await connectGoogle(w, OWNER)).status).toBe(200);
  connectionId = (await w.tdb.db('calendar_connections').where({ kind: 'google' }).first())!.id;
  const c = await waitForGoogleSync(w, connectionId, 0, 'ok');
  writerCalendarId = c.calendars[0].id;
  expect((await w.session.patch(`/api/v1/calendar-connections/${connectionId}`, { booking_calendar_id: writerCalendarId })).status).toBe(
    200,
  );
}, 60_000);

const confirmationTo = (email: string, meetingId: string) =>
  eventually(
    () =>
      w.smtp.messages.find(
        (m) =>
          m.to?.text.includes(email) && m.headers.get('x-meeting-id') === meetingId && m.headers.get('x-meeting-email') === 'confirmation',
      ),
    `the confirmation of ${meetingId} to ${email}`,
    45_000,
  );

test('the Meet link is the one Google made for the booking event, created with conferenceDataVersion=1, and the first email carries it', async () => {
  const { res, startMs } = await bookHoursAhead(w.app.baseUrl, w.team, { hoursAhead: 50, attendeeEmail: 'ada@example.com' });
  expect(res.status).toBe(201);
  const id: string = res.body.meeting.id;
  const eventId = googleEventIdOf(meetingUid(id));
  const ev = await eventually(() => g.events(OWNER).find((e) => e.id === eventId && e.hangoutLink), 'the event with its Meet link', 45_000);
  expect(ev.hangoutLink).toMatch(/^https:\/\/meet\.google\.com\/[a-z0-9]{3}-[a-z0-9]{4}-[a-z0-9]{3}$/);
  // The 201 came after the write: Google's event, and the Meet link as the meeting's link.
  expect(res.body.event).toMatchObject({ id: eventId, htmlLink: ev.htmlLink });
  expect(res.body.meeting_link).toBe(ev.hangoutLink);
  expect(res.body.meeting.meeting_link).toBe(ev.hangoutLink);
  const insert = g.calls.find((c) => c.method === 'POST' && c.body?.id === eventId)!;
  expect(insert.query).toMatchObject({ conferenceDataVersion: '1', sendUpdates: 'none' });
  expect(insert.body.conferenceData.createRequest).toEqual({
    requestId: `fss-meet-${eventId}`,
    conferenceSolutionKey: { type: 'hangoutsMeet' },
  });
  const meeting = await eventually(
    async () =>
      (await api().get(`/api/v1/meetings/${id}`)).body.data.meeting_link
        ? (await api().get(`/api/v1/meetings/${id}`)).body.data
        : undefined,
    'the meeting link',
  );
  expect(meeting.meeting_link).toBe(ev.hangoutLink);
  const mail = await confirmationTo('ada@example.com', id);
  expect(mail.text).toContain(ev.hangoutLink!);
  // Exactly one event for the booking, and one conference: the later write-back patched it.
  expect(g.events(OWNER).filter((e) => e.id === eventId)).toHaveLength(1);
  expect(g.calls.filter((c) => c.method === 'POST' && c.body?.id === eventId)).toHaveLength(1);

  // A reschedule patches the same event: the same Meet link.
  const moved = await api().patch(`/api/v1/meetings/${id}`, { start_time: new Date(startMs + 24 * HOUR).toISOString() });
  expect(moved.status).toBe(200);
  const newId: string = moved.body.data.rescheduled_to_id;
  await eventually(
    () => g.events(OWNER).find((e) => e.id === eventId && Date.parse(e.start.dateTime ?? '') === startMs + 24 * HOUR),
    'the event moved',
    45_000,
  );
  await eventually(async () => (await w.tdb.db('meetings').where({ id: newId }).first())?.meeting_link === ev.hangoutLink, 'the same link');
  expect(g.events(OWNER).filter((e) => e.hangoutLink)).toHaveLength(1);
});

test('an event type using Google Meet is refused when a host of its page has no Google destination calendar (400 naming location_type)', async () => {
  const member = await addMember(
    { db: w.tdb.db, config: w.app.config },
    { teamId: w.team.teamId, values: { email: `no-google-${Date.now()}@example.com`, role: 'member' } },
  );
  const page = await api().post('/api/v1/scheduling-pages', {
    title: 'Round robin',
    status: 'published',
    page_type: 'round_robin',
    host_user_ids: [w.team.userId, member.id],
  });
  expect(page.status).toBe(201);
  const refused = await api().post(`/api/v1/scheduling-pages/${page.body.data.id}/event-types`, { title: 'Meet' });
  expect(refused.status).toBe(400);
  expect(refused.body.error.details[0].path).toBe('body.location_type');
  expect(refused.body.error.details[0].message).toContain(member.email);
  const phone = await api().post(`/api/v1/scheduling-pages/${page.body.data.id}/event-types`, { title: 'Call', location_type: 'phone' });
  expect(phone.status).toBe(201);
  expect(phone.body.data.video_adapter).toBeNull();
  const toMeet = await api().patch(`/api/v1/scheduling-pages/${page.body.data.id}/event-types/${phone.body.data.id}`, {
    location_type: 'video_provider_1',
  });
  expect(toMeet.status).toBe(400);
});

test('a host who gave up their Google destination after the event type was saved: the booking goes on without a link', async () => {
  const { res: first } = await bookHoursAhead(w.app.baseUrl, w.team, { hoursAhead: 60, attendeeEmail: 'bob@example.com' });
  expect(first.status).toBe(201);
  const eventTypeId: string = first.body.meeting.event_type_id;
  const pageId = (await w.tdb.db('event_types').where({ id: eventTypeId }).first())!.scheduling_page_id;
  const shown = await api().get(`/api/v1/scheduling-pages/${pageId}/event-types/${eventTypeId}`);
  expect(shown.body.data).toMatchObject({ location_type: 'video_provider_1', video_adapter: 'google_meet' });
  await confirmationTo('bob@example.com', first.body.meeting.id);
  expect((await w.session.patch(`/api/v1/calendar-connections/${connectionId}`, { booking_calendar_id: null })).status).toBe(200);
  const startMs = Math.ceil((Date.now() + 64 * HOUR) / HOUR) * HOUR;
  const res = await client(w.app.baseUrl).post('/api/calendar/book', {
    user_id: w.team.userId,
    team_id: w.team.teamId,
    event_type_id: eventTypeId,
    attendee_email: 'cy@example.com',
    attendee_name: 'Cy Attendee',
    start: new Date(startMs).toISOString(),
    end: new Date(startMs + 30 * 60_000).toISOString(),
  });
  expect(res.status).toBe(201);
  const id: string = res.body.meeting.id;
  const mail = await confirmationTo('cy@example.com', id);
  expect(mail.text).not.toContain('meet.google.com');
  expect((await w.tdb.db('meetings').where({ id }).first())!.meeting_link).toBeNull();
  expect(g.calls.some((c) => c.body?.id === googleEventIdOf(meetingUid(id)))).toBe(false);
});
