import { useApiWorld } from '../helpers/world';
/**
 * Links that open a meeting without a login (services/scheduling/feed.ts): the public booking
 * answers link to the meeting's own .ics; the team's API shows the host's feed (until the event is
 * written to the host's calendar: test/calendars/write-back.test.ts); rotating the feed kills the
 * earlier URL; feed tokens made before derived tokens still work.
 */
import ICAL from 'ical.js';
import { sha256Hex } from '../../core/crypto';
import { meetingUid } from '../../domain/ics';
import { createTestTeam } from '../helpers/fixtures';
import { client, http } from '../helpers/http';
import { publishedEventType } from './helpers';

const HOUR = 3_600_000;

const w = useApiWorld({ available: true });

const api = () => client(w.app.baseUrl, w.team.apiKey);
const path = (url: string) => new URL(url).pathname;
const uids = (text: string) =>
  new ICAL.Component(ICAL.parse(text)).getAllSubcomponents('vevent').map((v) => String(v.getFirstPropertyValue('uid')));

let slot = 0;
async function bookA(): Promise<{ id: string; htmlLink: string }> {
  const { eventTypeId } = await publishedEventType(w.app.baseUrl, w.team, {}, { start_time_increment: 60 });
  const start = Math.ceil((Date.now() + (48 + 2 * slot++) * HOUR) / HOUR) * HOUR;
  const res = await client(w.app.baseUrl).post('/api/calendar/book', {
    user_id: w.team.userId,
    team_id: w.team.teamId,
    event_type_id: eventTypeId,
    attendee_email: 'ada@example.com',
    attendee_name: 'Ada',
    start: new Date(start).toISOString(),
    end: new Date(start + 30 * 60_000).toISOString(),
  });
  expect(res.status).toBe(201);
  return { id: res.body.meeting.id, htmlLink: res.body.event.htmlLink };
}

describe('calendar links', () => {
  it("variant A's event.htmlLink opens that meeting alone, without a login; a forged or mangled token is a 404", async () => {
    const first = await bookA();
    await bookA(); // another meeting of the same host: not in the first one's link
    expect(first.htmlLink).toMatch(new RegExp(`^${w.app.baseUrl}/api/calendar/feeds/calm_[0-9a-f]{32}\\.[A-Za-z0-9_-]{22}\\.ics$`));
    const res = await http(w.app.baseUrl, 'get', path(first.htmlLink));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/calendar');
    expect(uids(res.text)).toEqual([meetingUid(first.id)]);

    const token = path(first.htmlLink)
      .split('/')
      .pop()!
      .replace(/\.ics$/, '');
    const flipped = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
    expect((await http(w.app.baseUrl, 'get', `/api/calendar/feeds/${flipped}.ics`)).status).toBe(404);
    // The same MAC under the host-feed prefix is not a feed token.
    expect((await http(w.app.baseUrl, 'get', `/api/calendar/feeds/${token.replace('calm_', 'calh_')}.ics`)).status).toBe(404);
  });

  it('variant B answers the meeting with the same per-meeting link as calendar_link', async () => {
    const { eventTypeId } = await publishedEventType(w.app.baseUrl, w.team, {}, { start_time_increment: 60 });
    const start = Math.ceil((Date.now() + 200 * HOUR) / HOUR) * HOUR;
    const res = await client(w.app.baseUrl).post('/api/calendar/book', {
      event_type_id: eventTypeId,
      start_time: new Date(start).toISOString(),
      end_time: new Date(start + 30 * 60_000).toISOString(),
      timezone: 'UTC',
      name: 'Bea',
      email: 'bea@example.com',
    });
    expect(res.status).toBe(201);
    expect(res.body.data.calendar_link).toMatch(/\/api\/calendar\/feeds\/calm_/);
    expect(uids((await http(w.app.baseUrl, 'get', path(res.body.data.calendar_link))).text)).toEqual([meetingUid(res.body.data.id)]);
  });

  it("the team's API shows the host's feed as calendar_link; rotating it kills the earlier URL", async () => {
    const { id } = await bookA();
    const before = (await api().get(`/api/v1/meetings/${id}`)).body.data.calendar_link as string;
    expect(before).toMatch(/\/api\/calendar\/feeds\/calh_/);
    const feed = await http(w.app.baseUrl, 'get', path(before));
    expect(feed.status).toBe(200);
    expect(uids(feed.text)).toContain(meetingUid(id));

    const rotated = await api().post('/api/v1/calendar-feeds', {});
    expect(rotated.status).toBe(201);
    expect((await http(w.app.baseUrl, 'get', path(before))).status).toBe(404);
    const after = (await api().get(`/api/v1/meetings/${id}`)).body.data.calendar_link as string;
    expect(after).toBe(rotated.body.data.url);
    expect((await http(w.app.baseUrl, 'get', path(after))).status).toBe(200);
    // The PATCH answer carries it too.
    expect((await api().patch(`/api/v1/meetings/${id}`, { notes: 'bring slides' })).body.data.calendar_link).toBe(after);
  });

  it('a random feed token made before derived tokens keeps working until the next rotation', async () => {
    const other = await createTestTeam(w.tdb.db);
    const legacy = 'cal_legacyRandomTokenFromBefore0123456789';
    await w.tdb.db('calendar_feeds').insert({ user_id: other.userId, team_id: other.teamId, token_hash: sha256Hex(legacy) });
    expect((await http(w.app.baseUrl, 'get', `/api/calendar/feeds/${legacy}.ics`)).status).toBe(200);
    expect((await client(w.app.baseUrl, other.apiKey).post('/api/v1/calendar-feeds', {})).status).toBe(201);
    expect((await http(w.app.baseUrl, 'get', `/api/calendar/feeds/${legacy}.ics`)).status).toBe(404);
  });
});
