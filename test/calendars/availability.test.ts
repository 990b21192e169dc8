/**
 * Busy time from connected calendars in availability and bookings, end to end: events PUT on a real
 * Radicale (or served as a feed), synced by the workflow, read by the slot engine through the public
 * availability endpoints. Covers the recurrence cases peers get wrong (EXDATE, a moved occurrence,
 * a DST change), free/cancelled/declined events, our own bookings seen again on the host's calendar,
 * incremental syncs, check_conflicts, and round-robin and group pages.
 */
import { jsonb } from '../../db/jsonb';
import { DateTime } from 'luxon';
import { addMember } from '../../services/team';
import { client } from '../helpers/http';
import { nextDstChange, nextOpenDay } from '../helpers/open-day';
import { publishedEventType } from '../scheduling/helpers';
import { ics, RADICALE_PASSWORD, RADICALE_USER, startFeedServer, useCalendarWorld, utc, type FeedServer } from './support';
import { testConfig } from '../helpers/config';

const w = useCalendarWorld();
const ZONE = 'America/New_York';
const pub = () => client(w.app.baseUrl);

/** Hosts are free 08:00–18:00 every day in their zone. */
const DAYTIME = [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, start: '08:00', end: '18:00', enabled: true }));
async function daytime(userId: string, timezone: string): Promise<void> {
  await w.tdb
    .db('availability_schedules')
    .where({ user_id: userId })
    .update({ rules: jsonb(DAYTIME), timezone });
}

/** Epoch ms of a local wall-clock time. */
const at = (date: string, time: string, zone = ZONE) => DateTime.fromISO(`${date}T${time}`, { zone }).toMillis();
/** The local date `days` after today's in `zone`, on which the hosts are open (DAYTIME: every day). */
const dateIn = (days: number, zone = ZONE) => nextOpenDay(DAYTIME, { zone, after: days }).date;

let connectionId: string;
let calendarUrl: string;
let eventTypeId: string;
const stamp = () => `DTSTAMP:${utc(Date.now())}`;

/** Local "YYYY-MM-DDTHH:mm" starts of the slots variant B offers between two local dates. */
async function slotsB(start: string, end: string, eventType = eventTypeId): Promise<string[]> {
  const res = await pub().get(
    `/api/calendar/availability?event_type_id=${eventType}&start_date=${start}&end_date=${end}&timezone=${encodeURIComponent(ZONE)}`,
  );
  expect(res.status).toBe(200);
  return res.body.data.slots.map((s: { start: string }) => s.start.slice(0, 16));
}

/** Every hourly start 08:00–17:00 of each local day from `start` to `end`. */
function allDaytime(start: string, end: string): string[] {
  const out: string[] = [];
  for (let d = DateTime.fromISO(start); d <= DateTime.fromISO(end); d = d.plus({ days: 1 }))
    for (let h = 8; h <= 17; h++) out.push(`${d.toISODate()}T${String(h).padStart(2, '0')}:00`);
  return out;
}

beforeAll(async () => {
  await daytime(w.team.userId, ZONE);
  calendarUrl = await w.radicale.mkcalendar(RADICALE_USER, 'work', 'Work');
  ({ eventTypeId } = await publishedEventType(
    w.app.baseUrl,
    w.team,
    {},
    { duration_minutes: 60, start_time_increment: 60, min_notice_minutes: 0, max_booking_days: 300 },
  ));
  const since = Date.now();
  connectionId = await w.connect({ kind: 'caldav', server_url: w.radicale.url, username: RADICALE_USER, password: RADICALE_PASSWORD });
  expect((await w.waitForSync(connectionId, since)).status).toBe('ok');
});

it('a weekly event with one EXDATE and one moved occurrence blocks exactly the right slots over three weeks across a DST change', async () => {
  const change = nextDstChange(ZONE, { after: 12 });
  const d = (offset: number) => change.plus({ days: offset }).toISODate()!;
  const basic = (date: string) => date.replace(/-/g, '');
  const vtimezone = [
    'BEGIN:VTIMEZONE',
    'TZID:America/New_York',
    'BEGIN:DAYLIGHT',
    'TZOFFSETFROM:-0500',
    'TZOFFSETTO:-0400',
    'TZNAME:EDT',
    'DTSTART:19700308T020000',
    'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU',
    'END:DAYLIGHT',
    'BEGIN:STANDARD',
    'TZOFFSETFROM:-0400',
    'TZOFFSETTO:-0500',
    'TZNAME:EST',
    'DTSTART:19701101T020000',
    'RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU',
    'END:STANDARD',
    'END:VTIMEZONE',
  ];
  // Weekly at 10:00 local since three weeks before the window; in the window it falls on
  // change-8 (excluded), change-1 (moved to the DST day itself, 14:00) and change+6 (after the change).
  const tz = 'TZID=America/New_York';
  const series = [
    'UID:weekly-standup@test',
    stamp(),
    `DTSTART;${tz}:${basic(d(-22))}T100000`,
    `DTEND;${tz}:${basic(d(-22))}T110000`,
    'RRULE:FREQ=WEEKLY',
    `EXDATE;${tz}:${basic(d(-8))}T100000`,
    'SUMMARY:Stand-up',
  ];
  const moved = [
    'UID:weekly-standup@test',
    stamp(),
    `RECURRENCE-ID;${tz}:${basic(d(-1))}T100000`,
    `DTSTART;${tz}:${basic(d(0))}T140000`,
    `DTEND;${tz}:${basic(d(0))}T150000`,
    'SUMMARY:Stand-up (moved)',
  ];
  const text = ics(series, moved).replace('PRODID:-//fss tests//EN\r\n', `PRODID:-//fss tests//EN\r\n${vtimezone.join('\r\n')}\r\n`);
  await w.radicale.put(RADICALE_USER, calendarUrl, 'standup.ics', text);
  const c = await w.syncNow(connectionId);
  expect(c.status).toBe('ok');

  const start = d(-9);
  const end = d(11);
  const blocked = [`${d(0)}T14:00`, `${d(6)}T10:00`];
  const expected = allDaytime(start, end).filter((s) => !blocked.includes(s));
  const got = await slotsB(start, end);
  // Exactly: the excluded and the moved-away occurrences are free, the moved one and the one after the change block.
  expect(got).toEqual(expected);
  expect(got).toContain(`${d(-8)}T10:00`);
  expect(got).toContain(`${d(-1)}T10:00`);
  // Across the change the event stays at 10:00 local: its UTC hour moved.
  const before = at(d(-8), '10:00');
  const after = at(d(6), '10:00');
  expect(new Date(before).getUTCHours()).not.toBe(new Date(after).getUTCHours());
});

it('events marked free, cancelled events and events the host declined block nothing; a busy one does', async () => {
  const day = dateIn(3);
  const ev = (uid: string, time: string, ...extra: string[]) => [
    `UID:${uid}`,
    stamp(),
    `DTSTART:${utc(at(day, time))}`,
    `DTEND:${utc(at(day, time) + 3600_000)}`,
    ...extra,
  ];
  await w.radicale.put(RADICALE_USER, calendarUrl, 'busy.ics', ics(ev('busy@test', '09:00')));
  await w.radicale.put(RADICALE_USER, calendarUrl, 'free.ics', ics(ev('free@test', '11:00', 'TRANSP:TRANSPARENT')));
  await w.radicale.put(RADICALE_USER, calendarUrl, 'cancelled.ics', ics(ev('cancelled@test', '13:00', 'STATUS:CANCELLED')));
  await w.radicale.put(
    RADICALE_USER,
    calendarUrl,
    'declined.ics',
    ics(
      ev('declined@test', '15:00', 'ORGANIZER:mailto:boss@example.com', `ATTENDEE;PARTSTAT=DECLINED:mailto:${w.team.email.toUpperCase()}`),
    ),
  );
  await w.syncNow(connectionId);
  const got = await slotsB(day, day);
  expect(got).toEqual(allDaytime(day, day).filter((s) => s !== `${day}T09:00`));
});

it('an incremental sync replaces only the objects that changed or went away', async () => {
  const day = dateIn(4);
  const ev = (uid: string, time: string) =>
    ics([`UID:${uid}`, stamp(), `DTSTART:${utc(at(day, time))}`, `DTEND:${utc(at(day, time) + 3600_000)}`]);
  await w.radicale.put(RADICALE_USER, calendarUrl, 'a.ics', ev('a@test', '09:00'));
  await w.radicale.put(RADICALE_USER, calendarUrl, 'b.ics', ev('b@test', '10:00'));
  await w.radicale.put(RADICALE_USER, calendarUrl, 'c.ics', ev('c@test', '11:00'));
  await w.syncNow(connectionId);
  expect(await slotsB(day, day)).toEqual(allDaytime(day, day).filter((s) => !['09', '10', '11'].includes(s.slice(11, 13))));
  const rows = async () =>
    Object.fromEntries(
      (
        (await w.tdb.db('calendar_busy_times').where({ connection_id: connectionId }).select('id', 'object_href')) as Array<{
          id: string;
          object_href: string;
        }>
      ).map((r) => [r.object_href, String(r.id)]),
    );
  const before = await rows();

  await w.radicale.put(RADICALE_USER, calendarUrl, 'a.ics', ev('a@test', '16:00')); // moved
  await w.radicale.remove(RADICALE_USER, `${calendarUrl}b.ics`); // deleted
  const c = await w.syncNow(connectionId);
  expect(await slotsB(day, day)).toEqual(allDaytime(day, day).filter((s) => !['11', '16'].includes(s.slice(11, 13))));
  const after = await rows();
  expect(after['/alice/work/b.ics']).toBeUndefined();
  expect(after['/alice/work/a.ics']).not.toBe(before['/alice/work/a.ics']);
  // Untouched objects keep their rows: nothing else was rewritten.
  expect(after['/alice/work/c.ics']).toBe(before['/alice/work/c.ics']);
  expect(after['/alice/work/standup.ics']).toBe(before['/alice/work/standup.ics']);
  expect(c.counts.events).toBe(Object.keys(after).length + 3); // + the free, the cancelled and the declined objects, which give no busy time
});

it('our own booking seen again on the host calendar (same UID) does not count twice', async () => {
  const day = dateIn(5);
  const start = at(day, '12:00');
  const book = await pub().post('/api/calendar/book', {
    user_id: w.team.userId,
    team_id: w.team.teamId,
    event_type_id: eventTypeId,
    start: new Date(start).toISOString(),
    end: new Date(start + 3600_000).toISOString(),
    attendee_email: 'guest@example.com',
  });
  expect(book.status).toBe(201);
  const meetingId = book.body.meeting.id;
  const uid = `meeting-${meetingId}@forms-scheduling-sequences`;
  await w.radicale.put(
    RADICALE_USER,
    calendarUrl,
    'ours.ics',
    ics([`UID:${uid}`, stamp(), `DTSTART:${utc(start)}`, `DTEND:${utc(start + 3600_000)}`]),
  );
  await w.syncNow(connectionId);
  expect(await w.tdb.db('calendar_busy_times').where({ connection_id: connectionId, uid }).first()).toBeUndefined();
  expect(await slotsB(day, day)).not.toContain(`${day}T12:00`); // the meeting itself blocks
  // Cancelled: the slot is free again although the event is still on the host's calendar.
  const cancel = await w.api.patch(`/api/v1/meetings/${meetingId}`, { status: 'cancelled' });
  expect(cancel.status).toBe(200);
  expect(await slotsB(day, day)).toContain(`${day}T12:00`);
});

describe('round-robin and group pages use every host’s calendars', () => {
  let feed: FeedServer;
  let memberId: string;
  let feedConnection: string;
  const day = dateIn(6, 'UTC');
  const utcAt = (time: string) => at(day, time, 'UTC');

  beforeAll(async () => {
    feed = await startFeedServer();
    const member = await addMember(
      { db: w.tdb.db, config: testConfig() },
      { teamId: w.team.teamId, values: { email: `host-${Date.now()}@example.com`, role: 'member' } },
    );
    memberId = member.id;
    await daytime(memberId, 'UTC');
    await daytime(w.team.userId, ZONE);
    // The owner is busy 14:00–15:00 UTC (Radicale), the member 16:00–17:00 UTC (a feed).
    await w.radicale.put(
      RADICALE_USER,
      calendarUrl,
      'rr.ics',
      ics(['UID:rr@test', stamp(), `DTSTART:${utc(utcAt('14:00'))}`, `DTEND:${utc(utcAt('15:00'))}`]),
    );
    await w.syncNow(connectionId);
    feed.serve(ics(['UID:member-busy@test', stamp(), `DTSTART:${utc(utcAt('16:00'))}`, `DTEND:${utc(utcAt('17:00'))}`]));
    const since = Date.now();
    const res = await w.session.post('/api/v1/calendar-connections', {
      kind: 'ics_feed',
      url: `${feed.url}/member.ics`,
      user_id: memberId,
    });
    expect(res.status).toBe(201);
    feedConnection = res.body.data.id;
    expect((await w.waitForSync(feedConnection, since)).status).toBe('ok');
  });
  afterAll(() => feed.close());

  async function page(pageType: 'round_robin' | 'group') {
    const { pageId, eventTypeId: et } = await publishedEventType(
      w.app.baseUrl,
      w.team,
      { page_type: pageType, host_user_ids: [w.team.userId, memberId] },
      { duration_minutes: 60, start_time_increment: 60, min_notice_minutes: 0 },
    );
    const av = await pub().get(
      `/api/calendar/availability?user_id=${w.team.userId}&team_id=${w.team.teamId}&date=${day}&event_type_id=${et}&scheduling_page_id=${pageId}`,
    );
    expect(av.status).toBe(200);
    const slots = new Map<string, number>(
      av.body.available_slots.map((s: { start: string; available_host_count?: number }) => [
        s.start.slice(11, 16),
        s.available_host_count ?? 0,
      ]),
    );
    return { pageId, et, slots };
  }

  it('round-robin: a host busy in their calendar is not offered; the booking goes to the free host', async () => {
    const { et, pageId, slots } = await page('round_robin');
    expect(slots.get('14:00')).toBe(1);
    expect(slots.get('16:00')).toBe(1);
    expect(slots.get('15:00')).toBe(2);
    const res = await pub().post('/api/calendar/book', {
      user_id: w.team.userId,
      team_id: w.team.teamId,
      event_type_id: et,
      scheduling_page_id: pageId,
      start: new Date(utcAt('14:00')).toISOString(),
      end: new Date(utcAt('15:00')).toISOString(),
      attendee_email: 'rr@example.com',
    });
    expect(res.status).toBe(201);
    expect(res.body.meeting.host_user_id).toBe(memberId);
  });

  it('group: every host must be free in their calendars; booking a busy slot is a 409', async () => {
    const { et, pageId, slots } = await page('group');
    expect(slots.has('14:00')).toBe(false); // the owner's calendar (and now the member's meeting)
    expect(slots.has('16:00')).toBe(false); // the member's feed
    expect(slots.has('13:00')).toBe(true);
    const res = await pub().post('/api/calendar/book', {
      user_id: w.team.userId,
      team_id: w.team.teamId,
      event_type_id: et,
      scheduling_page_id: pageId,
      start: new Date(utcAt('16:00')).toISOString(),
      end: new Date(utcAt('17:00')).toISOString(),
      attendee_email: 'group@example.com',
    });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('slot_unavailable');
  });

  it('a calendar not checked for conflicts stops blocking, and blocks again when checked', async () => {
    const conn = (await w.api.get(`/api/v1/calendar-connections/${connectionId}`)).body.data;
    const work = conn.calendars.find((c: { name: string }) => c.name === 'Work');
    await w.session.patch(`/api/v1/calendar-connections/${connectionId}`, { calendars: [{ id: work.id, check_conflicts: false }] });
    const { slots } = await page('group');
    expect(slots.has('14:00')).toBe(false); // the member's meeting at 14:00 still blocks the group
    expect(await slotsB(dateIn(3), dateIn(3))).toContain(`${dateIn(3)}T09:00`); // the owner's busy event no longer blocks
    await w.session.patch(`/api/v1/calendar-connections/${connectionId}`, { calendars: [{ id: work.id, check_conflicts: true }] });
    expect(await slotsB(dateIn(3), dateIn(3))).not.toContain(`${dateIn(3)}T09:00`);
  });

  it('a deleted connection stops blocking at once', async () => {
    const del = await w.session.delete(`/api/v1/calendar-connections/${feedConnection}`);
    expect(del.status).toBe(204);
    const { slots } = await page('round_robin');
    expect(slots.get('16:00')).toBe(2);
  });
});
