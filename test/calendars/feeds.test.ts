/**
 * Secret iCalendar feeds served by a local HTTP server: the sync sends If-None-Match, an unchanged
 * feed costs a 304, a changed one is picked up on the next sync; a feed that is too large, not
 * iCalendar, malformed or gone puts the connection in the error state with a sentence saying why,
 * and a failed sync changes nothing that was cached.
 */
import { jsonb } from '../../db/jsonb';
import { DateTime } from 'luxon';
import { FEED_MAX_BYTES } from '../../services/calendars/ics-feed';
import { client } from '../helpers/http';
import { dateAhead } from '../helpers/open-day';
import { ics, startFeedServer, useCalendarWorld, utc, type FeedServer } from './support';

const w = useCalendarWorld();
let feed: FeedServer;
const day = dateAhead(2); // the owner is made available every day below
const at = (time: string) => DateTime.fromISO(`${day}T${time}`, { zone: 'utc' }).toMillis();
const event = (uid: string, time: string) => [
  `UID:${uid}`,
  `DTSTAMP:${utc(Date.now())}`,
  `DTSTART:${utc(at(time))}`,
  `DTEND:${utc(at(time) + 3600_000)}`,
];

/** Starts (HH:mm, UTC) offered to the owner on `day`, hourly. */
async function freeHours(): Promise<string[]> {
  const res = await client(w.app.baseUrl).get(
    `/api/calendar/availability?user_id=${w.team.userId}&team_id=${w.team.teamId}&date=${day}&duration=60`,
  );
  expect(res.status).toBe(200);
  return res.body.available_slots.map((s: { start: string }) => s.start.slice(11, 16)).filter((t: string) => t.endsWith(':00'));
}

beforeAll(async () => {
  feed = await startFeedServer();
  await w.tdb
    .db('availability_schedules')
    .where({ user_id: w.team.userId })
    .update({
      rules: jsonb([0, 1, 2, 3, 4, 5, 6].map((d) => ({ day: d, start: '00:00', end: '24:00', enabled: true }))),
      timezone: 'UTC',
    });
});
afterAll(() => feed.close());

describe('an ICS feed', () => {
  let id: string;

  it('is read on connect; its secret path is never shown', async () => {
    feed.serve(ics(event('feed-a@test', '09:00')));
    const since = Date.now();
    const res = await w.session.post('/api/v1/calendar-connections', { kind: 'ics_feed', url: `${feed.url}/private-s3cr3t/basic.ics` });
    expect(res.status).toBe(201);
    id = res.body.data.id;
    expect(res.body.data.url).toBe(`${feed.url}/…`);
    expect(res.text).not.toContain('s3cr3t');
    const c = await w.waitForSync(id, since);
    expect(c).toMatchObject({ status: 'ok', counts: { calendars: 0, events: 1, busy_intervals: 1 } });
    expect(feed.requests.at(-1)!.path).toBe('/private-s3cr3t/basic.ics');
    expect(await freeHours()).not.toContain('09:00');
  });

  it('unchanged: the next sync sends If-None-Match and costs a 304', async () => {
    const before = feed.notModified;
    const c = await w.syncNow(id);
    expect(c.status).toBe('ok');
    expect(feed.notModified).toBe(before + 1);
    expect(feed.requests.at(-1)!.headers['if-none-match']).toMatch(/^"[0-9a-f]+"$/);
    expect(await freeHours()).not.toContain('09:00');
  });

  it('changed: picked up on the next sync', async () => {
    feed.serve(ics(event('feed-b@test', '11:00'), event('feed-c@test', '13:00')));
    const c = await w.syncNow(id);
    expect(c).toMatchObject({ status: 'ok', counts: { events: 2, busy_intervals: 2 } });
    const free = await freeHours();
    expect(free).toContain('09:00');
    expect(free).not.toContain('11:00');
    expect(free).not.toContain('13:00');
  });

  describe('a failed sync: the error state with a reason, and the cached busy time stays', () => {
    const stillCached = async () => {
      const free = await freeHours();
      expect(free).not.toContain('11:00');
      expect(free).not.toContain('13:00');
      expect((await w.api.get(`/api/v1/calendar-connections/${id}`)).body.data.counts.busy_intervals).toBe(2);
    };

    it(`over the ${FEED_MAX_BYTES / 1024 / 1024} MB cap`, async () => {
      const padding = Array.from({ length: 60_000 }, (_, i) => `X-PAD-${i}:${'x'.repeat(90)}`);
      feed.serve(ics([...event('huge@test', '15:00'), ...padding]));
      const c = await w.syncNow(id);
      expect(c.status).toBe('error');
      expect(c.status_message).toBe('the feed is larger than the 5 MB limit');
      await stillCached();
    });

    it('malformed iCalendar', async () => {
      feed.serve('BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:broken\r\nDTSTART:not-a-date\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n');
      const c = await w.syncNow(id);
      expect(c.status).toBe('error');
      expect(c.status_message).toMatch(/^the feed is not valid iCalendar/);
      await stillCached();
    });

    it('not iCalendar at all', async () => {
      feed.serve('<html>Sign in</html>', { contentType: 'text/html' });
      const c = await w.syncNow(id);
      expect(c.status).toBe('error');
      expect(c.status_message).toMatch(/does not serve an iCalendar feed/);
      await stillCached();
    });

    it('gone (the secret address was reset)', async () => {
      feed.serve('not here', { status: 404, contentType: 'text/plain' });
      const c = await w.syncNow(id);
      expect(c.status).toBe('error');
      expect(c.status_message).toMatch(/has no feed at this address \(HTTP 404\)/);
      await stillCached();
    });

    it('back to normal on the next good sync', async () => {
      feed.serve(ics(event('feed-d@test', '17:00')));
      const c = await w.syncNow(id);
      expect(c).toMatchObject({ status: 'ok', status_message: null, counts: { busy_intervals: 1 } });
      const free = await freeHours();
      expect(free).toContain('11:00');
      expect(free).not.toContain('17:00');
    });
  });
});
