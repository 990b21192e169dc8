// Video links that open a room: the default Jitsi-compatible link, and the Daily adapter (rooms
// created by the booking workflow and deleted by the cleanup workflow), against a local stand-in
// for Daily's REST API.
import { buildWorkerDeps } from '../../activities/deps';
import { meetingActivities } from './support/activities';
import { parseConfig } from '../../core/config';
import { createMailer } from '../../core/mailer';
import { linkFromTemplate, newRoomName, roomOfLink } from '../../core/video';
import { client } from '../helpers/http';
import { withWorker } from '../helpers/temporal';
import { bookHoursAhead } from './helpers';
import { startDailyStandin } from './support/daily-standin';
import { useApiWorld } from '../helpers/world';

const HOUR = 3_600_000;
const KEY = 'daily-test-key';
let daily: Awaited<ReturnType<typeof startDailyStandin>>;

beforeAll(async () => {
  daily = await startDailyStandin(KEY);
});
afterAll(() => daily.close());
const w = useApiWorld({
  temporal: 'time-skipping',
  smtp: true,
  available: true,
  env: () => ({
    VIDEO_PROVIDER_2_ADAPTER: 'daily',
    VIDEO_PROVIDER_2_URL_TEMPLATE: 'https://example-team.daily.co/{room}',
    DAILY_API_URL: daily.url,
    DAILY_API_KEY: KEY,
  }),
});

function activities() {
  const mailer = createMailer({ SMTP_URL: w.smtp.url, MAIL_FROM: 'Bookings <bookings@example.com>', dataDir: '/tmp/unused' });
  return meetingActivities(buildWorkerDeps(w.app.config, w.tdb.db, w.app.deps.outbox, { mailer }));
}

async function book(locationType: string, hoursAhead: number): Promise<{ id: string; link: string }> {
  const { res } = await bookHoursAhead(w.app.baseUrl, w.team, {
    hoursAhead,
    eventType: { location_type: locationType },
    attendeeEmail: 'attendee@example.com',
  });
  if (res.status !== 201) throw new Error(`${res.status} ${res.text}`);
  return { id: res.body.meeting.id, link: res.body.meeting_link };
}

async function describeWhenStarted(id: string) {
  for (let i = 0; i < 100; i++) {
    try {
      return await w.env.client.workflow.getHandle(id).describe();
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`workflow ${id} did not start`);
}

describe('room names and links', () => {
  test('a room name carries 128 random bits and never repeats', () => {
    const names = new Set(Array.from({ length: 2000 }, newRoomName));
    expect(names.size).toBe(2000);
    for (const n of names) expect(n).toMatch(/^fss-[a-z2-7]{26}$/);
  });

  test('templates take {room}; the room is read back from the link', () => {
    const link = linkFromTemplate('https://video.example.org/rooms/{room}', 'fss-abc');
    expect(link).toBe('https://video.example.org/rooms/fss-abc');
    expect(roomOfLink(link)).toEqual({ name: 'fss-abc', link });
  });

  test('a template without {room}, or not https, stops the start-up naming the variable', () => {
    expect(() => parseConfig({ VIDEO_PROVIDER_1_URL_TEMPLATE: 'https://video-1.example.com/m/fixed' })).toThrow(
      /VIDEO_PROVIDER_1_URL_TEMPLATE/,
    );
    expect(() => parseConfig({ VIDEO_PROVIDER_2_URL_TEMPLATE: 'http://meet.example.com/{room}' })).toThrow(/VIDEO_PROVIDER_2_URL_TEMPLATE/);
    expect(() => parseConfig({ VIDEO_PROVIDER_1_ADAPTER: 'daily' })).toThrow(/DAILY_API_KEY/);
  });
});

describe('video providers on bookings', () => {
  test('provider 1 (default): an unguessable Jitsi Meet room, different for every booking, nothing to call', async () => {
    const calls = daily.calls.length;
    const a = await book('video_provider_1', 50);
    const b = await book('video_provider_1', 51);
    expect(a.link).toMatch(/^https:\/\/meet\.jit\.si\/fss-[a-z2-7]{26}$/);
    expect(b.link).not.toBe(a.link);
    expect(daily.calls.length).toBe(calls);
  });

  test('provider 2 on Daily: the booking workflow creates the room (retrying a failing API) before the confirmation; cancelling deletes it', async () => {
    await withWorker(w.env, activities(), async () => {
      daily.state.failNext = 2;
      const { id, link } = await book('video_provider_2', 30);
      const room = roomOfLink(link).name;
      expect(link).toBe(`https://example-team.daily.co/${room}`);
      await describeWhenStarted(`booking-${id}`);
      for (let i = 0; i < 200 && !daily.rooms.has(room); i++) await new Promise((r) => setTimeout(r, 100));
      expect(daily.rooms.get(room)).toMatchObject({ name: room, privacy: 'public', url: link });
      const posts = daily.calls.filter((c) => c.method === 'POST' && c.body?.name === room);
      expect(posts.length).toBe(3); // two 503s, then created
      expect(posts[2].authorization).toBe(`Bearer ${KEY}`);
      const start = (await w.tdb.db('meetings').where({ id }).first())!.start_time as Date;
      expect(posts[2].body!.properties.nbf).toBe(Math.floor((start.getTime() - HOUR) / 1000));

      // the confirmation went out after the room existed, and carries the link
      for (let i = 0; i < 100 && !w.smtp.messages.some((m) => m.headers.get('x-meeting-id') === id); i++)
        await new Promise((r) => setTimeout(r, 100));
      const confirmation = w.smtp.messages.find((m) => m.headers.get('x-meeting-id') === id)!;
      expect(String(confirmation.text)).toContain(link);

      const res = await client(w.app.baseUrl, w.team.apiKey).patch(`/api/v1/meetings/${id}`, {
        status: 'cancelled',
        cancellation_reason: 'cannot make it',
      });
      expect(res.status).toBe(200);
      await describeWhenStarted(`meeting-cleanup-${id}`); // started right after the PATCH's commit
      await w.env.client.workflow.getHandle(`meeting-cleanup-${id}`).result();
      expect(daily.rooms.has(room)).toBe(false);
      expect(daily.calls.some((c) => c.method === 'DELETE' && c.path === `/v1/rooms/${room}`)).toBe(true);
    });
  });
});
