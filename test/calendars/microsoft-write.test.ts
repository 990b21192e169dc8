/**
 * Bookings written to Microsoft 365 through Graph, and the Teams video adapter, end to end
 * (docs/calendars.md "Microsoft 365: writing bookings and Teams"): the public booking endpoint, the
 * booking and cleanup workflows on the Temporal test server, and the Graph events stand-in
 * (test/helpers/graph-events-standin.ts, not Microsoft) read back. The Microsoft connection is made
 * in the database (its connect flow is another suite's), its booking calendar chosen through the API;
 * its access token has expired, so the first
 * call refreshes it and the stand-in rotates the refresh token.
 */
import { randomUUID } from 'node:crypto';
import { graphTransactionIdOf } from '../../core/calendars/microsoft-events';
import { ConfigError } from '../../core/config';
import { meetingUid } from '../../domain/ics';
import { openMicrosoftTokens, sealMicrosoftTokens } from '../../services/calendars/microsoft-tokens';
import { startGraphEventsStandin, type GraphEventsStandin } from '../helpers/graph-events-standin';
import { testConfig } from '../helpers/config';
import { client } from '../helpers/http';
import { eventually } from '../helpers/smtp';
import { smtpActivities } from './provider-support';
import { useApiWorld } from '../helpers/world';
import { bookHoursAhead, publishedEventType } from '../scheduling/helpers';

const HOUR = 3_600_000;
const CAL = 'AAMkADBookingsCalendar=';
let g: GraphEventsStandin;
beforeAll(async () => {
  g = await startGraphEventsStandin({ clientId: 'ms-client', clientSecret: 'ms-secret' });
});
afterAll(() => g?.close());

const w = useApiWorld({
  smtp: true,
  temporal: 'time-skipping',
  available: true,
  // The booking answer waits for the write (10 s: a slow machine still answers Graph's event).
  env: () => ({ ...g.env(), VIDEO_PROVIDER_2_ADAPTER: 'microsoft_teams', BOOKING_EVENT_WAIT_MS: '10000' }),
  worker: (): object => smtpActivities(w),
});
const api = () => client(w.app.baseUrl, w.team.apiKey);
const connectionId = randomUUID();
let firstRefreshToken: string;

beforeAll(async () => {
  const t = g.grant();
  firstRefreshToken = t.refreshToken;
  const sealed = sealMicrosoftTokens(w.app.config, connectionId, { ...t, accessExpiresAt: 0 });
  const { db } = w.tdb;
  await db('calendar_connections').insert({
    id: connectionId,
    team_id: w.team.teamId,
    user_id: w.team.userId,
    kind: 'microsoft',
    name: 'Microsoft 365',
    display_url: 'https://outlook.office.com/calendar',
    account_email: 'host@contoso.example',
    credentials_enc: sealed,
    status: 'ok',
    last_synced_at: new Date(),
  });
  await db('calendar_connection_calendars').insert({
    connection_id: connectionId,
    team_id: w.team.teamId,
    user_id: w.team.userId,
    url: CAL,
    display_name: 'Calendar',
    read_only: false,
    check_conflicts: false,
    is_booking_calendar: false,
  });
  await db('calendar_connection_calendars').insert({
    connection_id: connectionId,
    team_id: w.team.teamId,
    user_id: w.team.userId,
    url: 'AAMkADHolidays=',
    display_name: 'United States holidays',
    read_only: true,
    check_conflicts: false,
    is_booking_calendar: false,
  });
});

test('the host picks the booking calendar through the API: a Microsoft calendar it only reads is refused, one it can edit is taken', async () => {
  const cals: Array<{ id: string; url: string }> = await w.tdb.db('calendar_connection_calendars').where({ connection_id: connectionId });
  const byUrl = Object.fromEntries(cals.map((c) => [c.url, c.id]));
  const refused = await w.session.patch(`/api/v1/calendar-connections/${connectionId}`, { booking_calendar_id: byUrl['AAMkADHolidays='] });
  expect(refused.status).toBe(400);
  expect(refused.body.error.details[0]).toMatchObject({
    path: 'body.booking_calendar_id',
    message: 'this calendar is read-only on the server',
  });
  const chosen = await w.session.patch(`/api/v1/calendar-connections/${connectionId}`, { booking_calendar_id: byUrl[CAL] });
  expect(chosen.status).toBe(200);
  const booking = (chosen.body.data.calendars as Array<{ id: string; is_booking_calendar: boolean }>).filter((c) => c.is_booking_calendar);
  expect(booking.map((c) => c.id)).toEqual([byUrl[CAL]]);
});

const book = (hoursAhead: number, eventType: Record<string, unknown> = {}) =>
  bookHoursAhead(w.app.baseUrl, w.team, {
    hoursAhead,
    eventType: { location_type: 'phone', ...eventType },
    attendeeEmail: 'ada@example.com',
  });
const recorded = (meetingId: string) =>
  eventually(
    () => w.tdb.db('meeting_calendar_writes').where({ meeting_id: meetingId, state: 'written' }).first(),
    'the write recorded',
    45_000,
  );
const creates = () => g.state.calls.filter((c) => c.method === 'POST' && c.path === `/me/calendars/${encodeURIComponent(CAL)}/events`);
const txOf = (meetingId: string) => graphTransactionIdOf(meetingUid(meetingId));

test('microsoft_teams needs the Microsoft app (and google_meet still the Google one)', () => {
  expect(() => testConfig({ VIDEO_PROVIDER_2_ADAPTER: 'google_meet' })).toThrow(
    /GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET: required when VIDEO_PROVIDER_2_ADAPTER=google_meet/,
  );
  expect(() => testConfig({ VIDEO_PROVIDER_1_ADAPTER: 'microsoft_teams' })).toThrow(ConfigError);
  expect(() => testConfig({ VIDEO_PROVIDER_1_ADAPTER: 'microsoft_teams' })).toThrow(
    /MICROSOFT_CLIENT_ID, MICROSOFT_CLIENT_SECRET: required/,
  );
});

test('a booking becomes one event with its attendee, times in UTC, and the meeting links to its webLink', async () => {
  const { res, startMs } = await book(50);
  expect(res.status).toBe(201);
  const id: string = res.body.meeting.id;
  const rec = await recorded(id);
  const ev = g.state.events.get(rec.provider_event_id!)!;
  expect(ev.calendarId).toBe(CAL);
  expect(ev.transactionId).toBe(txOf(id));
  expect(ev.attendees).toEqual([{ emailAddress: { address: 'ada@example.com', name: 'Ada Attendee' }, type: 'required' }]);
  expect(ev.start).toEqual({ dateTime: new Date(startMs).toISOString().replace(/Z$/, ''), timeZone: 'UTC' });
  expect(ev.subject).toContain('Ada Attendee');
  expect(rec.html_url).toBe(ev.webLink);
  // The 201 waited for the worker's write and answers Graph's event (issue 38 item 6).
  expect(res.body.event).toMatchObject({ id: rec.provider_event_id, htmlLink: ev.webLink, summary: ev.subject });
  expect(creates().filter((c) => c.body?.transactionId === txOf(id))).toHaveLength(1);
  expect(creates()[0].prefer).toBe('outlook.timezone="UTC"');
  expect((await api().get(`/api/v1/meetings/${id}`)).body.data.calendar_link).toBe(ev.webLink);
  // The expired access token was refreshed once, and the rotated refresh token stored.
  const row = await w.tdb.db('calendar_connections').where({ id: connectionId }).first();
  const tokens = openMicrosoftTokens(w.app.config, connectionId, row!.credentials_enc);
  expect(tokens.refreshToken).not.toBe(firstRefreshToken);
  expect(g.state.refreshTokens.has(tokens.refreshToken)).toBe(true);
  expect(g.state.refreshTokens.has(firstRefreshToken)).toBe(false);
});

test('a create whose answer is lost (Graph stored it) is retried with the same transactionId: exactly one event', async () => {
  g.state.dropCreates = 1;
  const { res } = await book(54);
  const id: string = res.body.meeting.id;
  const rec = await recorded(id);
  const mine = creates().filter((c) => c.body?.transactionId === txOf(id));
  expect(mine.map((c) => c.status)).toEqual([0, 201]); // no answer, then the event already made
  expect([...g.state.events.values()].filter((e) => e.transactionId === txOf(id))).toHaveLength(1);
  expect(g.state.events.has(rec.provider_event_id!)).toBe(true);
  expect(g.state.dropCreates).toBe(0);
});

test('a throttled create (429, Retry-After) is retried after the wait', async () => {
  g.state.throttle = 1;
  const { res } = await book(56);
  const rec = await recorded(res.body.meeting.id);
  expect(g.state.calls.some((c) => c.status === 429)).toBe(true);
  expect(g.state.events.has(rec.provider_event_id!)).toBe(true);
});

test('a reschedule patches the same event; a cancel deletes it; a delete Graph answers 404 counts as done', async () => {
  const { res, startMs } = await book(58);
  const id: string = res.body.meeting.id;
  const eventId: string = (await recorded(id)).provider_event_id!;
  const newStart = startMs + 24 * HOUR;
  const moved = await api().patch(`/api/v1/meetings/${id}`, { start_time: new Date(newStart).toISOString() });
  expect(moved.status).toBe(200);
  const newId: string = moved.body.data.rescheduled_to_id;
  await eventually(
    () => g.state.events.get(eventId)?.start.dateTime === new Date(newStart).toISOString().replace(/Z$/, ''),
    'the same event moved',
    45_000,
  );
  expect(g.state.calls.some((c) => c.method === 'PATCH' && c.path === `/me/events/${encodeURIComponent(eventId)}`)).toBe(true);
  expect((await recorded(newId)).provider_event_id).toBe(eventId);
  expect((await api().patch(`/api/v1/meetings/${newId}`, { status: 'cancelled' })).status).toBe(200);
  await eventually(() => !g.state.events.has(eventId), 'the event deleted', 45_000);

  // The host already deleted the next one in Outlook: Graph answers 404, the record is removed.
  const other = await book(62);
  const otherId: string = other.res.body.meeting.id;
  const gone: string = (await recorded(otherId)).provider_event_id!;
  g.state.events.delete(gone);
  expect((await api().patch(`/api/v1/meetings/${otherId}`, { status: 'cancelled' })).status).toBe(200);
  await eventually(
    async () => (await w.tdb.db('meeting_calendar_writes').where({ meeting_id: otherId }).first())?.state === 'removed',
    'the record removed',
    45_000,
  );
  const deletes = g.state.calls.filter((c) => c.method === 'DELETE' && c.path === `/me/events/${encodeURIComponent(gone)}`);
  expect(deletes.map((c) => c.status)).toEqual([404]);
  expect((await w.tdb.db('calendar_connections').where({ id: connectionId }).first())!.status).toBe('ok');
});

test('microsoft_teams: the link is the joinUrl of the Teams meeting Graph made with the event', async () => {
  const { res, startMs } = await book(66, { location_type: 'video_provider_2' });
  expect(res.status).toBe(201);
  const id: string = res.body.meeting.id;
  const rec = await recorded(id);
  const ev = g.state.events.get(rec.provider_event_id!)!;
  expect(ev).toMatchObject({ isOnlineMeeting: true, onlineMeetingProvider: 'teamsForBusiness' });
  expect(ev.onlineMeeting?.joinUrl).toMatch(/^https:\/\/teams\.microsoft\.com\/l\/meetup-join\//);
  await eventually(async () => (await w.tdb.db('meetings').where({ id }).first())?.meeting_link === ev.onlineMeeting?.joinUrl, 'the link');
  // The answer came after the write: the meeting's link is already the Teams link.
  expect(res.body.meeting_link).toBe(ev.onlineMeeting?.joinUrl);
  expect(res.body.event.htmlLink).toBe(ev.webLink);

  // A reschedule patches the event without its body (Graph keeps the meeting's blob there; a body
  // replaced without it disables the meeting, learn.microsoft.com/graph/api/event-update): the Teams meeting stays.
  const joinUrl = ev.onlineMeeting!.joinUrl;
  const moved = await api().patch(`/api/v1/meetings/${id}`, { start_time: new Date(startMs + 24 * HOUR).toISOString() });
  expect(moved.status).toBe(200);
  const patched = () => g.state.calls.find((c) => c.method === 'PATCH' && c.path === `/me/events/${encodeURIComponent(ev.id)}`);
  const patch = await eventually(patched, 'the event patched', 45_000);
  expect(patch.status).toBe(200);
  expect(patch.body).not.toHaveProperty('body');
  expect(patch.body).toMatchObject({
    isOnlineMeeting: true,
    start: { dateTime: new Date(startMs + 24 * HOUR).toISOString().replace(/Z$/, '') },
  });
  expect(g.state.events.get(ev.id)?.onlineMeeting?.joinUrl).toBe(joinUrl);
});

test('microsoft_teams with a personal account (no Teams): the event is written, the booking kept without a link', async () => {
  g.state.personal = true;
  try {
    const { res } = await book(70, { location_type: 'video_provider_2' });
    expect(res.status).toBe(201);
    const id: string = res.body.meeting.id;
    const rec = await recorded(id);
    const ev = g.state.events.get(rec.provider_event_id!)!;
    expect(ev.onlineMeeting).toBeNull();
    const m = await w.tdb.db('meetings').where({ id }).first();
    expect(m).toMatchObject({ status: 'scheduled', meeting_link: null });
  } finally {
    g.state.personal = false;
  }
});

test('an event type using Teams is refused when the host has no Microsoft destination calendar (400 naming location_type)', async () => {
  const { pageId } = await publishedEventType(w.app.baseUrl, w.team);
  const { db } = w.tdb;
  await db('calendar_connection_calendars').where({ connection_id: connectionId, url: CAL }).update({ is_booking_calendar: false });
  try {
    const refused = await api().post(`/api/v1/scheduling-pages/${pageId}/event-types`, {
      title: 'Teams',
      location_type: 'video_provider_2',
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details[0].path).toBe('body.location_type');
    expect(refused.body.error.details[0].message).toContain('Microsoft destination calendar');
  } finally {
    await db('calendar_connection_calendars').where({ connection_id: connectionId, url: CAL }).update({ is_booking_calendar: true });
  }
  const ok = await api().post(`/api/v1/scheduling-pages/${pageId}/event-types`, { title: 'Teams', location_type: 'video_provider_2' });
  expect(ok.status).toBe(201);
});

test('Graph refusing the token, also after a forced refresh, marks the connection needs_reauth (not the Google message)', async () => {
  g.state.rejectAccess = true;
  try {
    const from = g.state.calls.length;
    const { res } = await book(74);
    if (res.status !== 201) {
      // An earlier booking's workflow, still writing, met the refusal first: the connection is then
      // needs_reauth and its host offers no times (fail closed), so this booking is refused.
      expect(res.status).toBe(409);
      expect((await w.tdb.db('calendar_connections').where({ id: connectionId }).first())?.status).toBe('needs_reauth');
    }
    const row = await eventually(
      async () => {
        const r = await w.tdb.db('calendar_connections').where({ id: connectionId }).first();
        return r?.status === 'needs_reauth' ? r : undefined;
      },
      'needs_reauth',
      45_000,
    );
    expect(row.status_message).toContain('connect Microsoft 365 again');
    // One try, one more after a forced refresh, then given up (a permanent failure: not retried).
    const since = g.state.calls.slice(from);
    // (Per request: an earlier booking's workflow may still be writing when the token is refused.)
    const refused = since.filter((c) => c.status === 401);
    expect(refused.length).toBeGreaterThan(0);
    for (const c of refused) expect(refused.filter((x) => x.method === c.method && x.path === c.path)).toHaveLength(2);
    expect(since.filter((c) => c.path === '/token').length).toBeGreaterThanOrEqual(1);
  } finally {
    g.state.rejectAccess = false;
  }
});
