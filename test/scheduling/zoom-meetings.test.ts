import { removeZoomMeeting, zoomMarker } from '../../services/zoom/meetings';
import { eventually } from '../helpers/smtp';
import { startZoomStandin } from '../helpers/zoom-standin';
import { startWorld, type World } from '../sequences/support/world';
import { alwaysAvailable, bookHoursAhead } from './helpers';

/**
 * Zoom meetings per booking, in the per-installation set-up (Server-to-Server OAuth, the host's
 * Zoom user by email), against the stand-in of Zoom's API (test/helpers/zoom-standin.ts): the
 * booking workflow makes one meeting whose join URL becomes the link; a lost create answer and a
 * 429 never make a second; a reschedule patches the same meeting; a cancel deletes it.
 */
const ZOOM = { clientId: 's2s-client', clientSecret: 's2s-secret', accountId: 'acc-1', secretToken: 'zm-secret' };
let w: World;
let zoom: Awaited<ReturnType<typeof startZoomStandin>>;

beforeAll(async () => {
  zoom = await startZoomStandin(ZOOM);
  w = await startWorld({
    appEnv: {
      VIDEO_PROVIDER_1_ADAPTER: 'zoom',
      ZOOM_SETUP: 'installation',
      ZOOM_API_URL: zoom.apiUrl,
      ZOOM_OAUTH_URL: zoom.url,
      ZOOM_CLIENT_ID: ZOOM.clientId,
      ZOOM_CLIENT_SECRET: ZOOM.clientSecret,
      ZOOM_ACCOUNT_ID: ZOOM.accountId,
      ZOOM_WEBHOOK_SECRET_TOKEN: ZOOM.secretToken,
    },
  });
  await alwaysAvailable(w.tdb.db, w.team.userId);
}, 60_000);
afterAll(async () => {
  await w?.close();
  await zoom?.close();
});

let hours = 30;
async function book(eventType: Record<string, unknown> = {}) {
  const { res } = await bookHoursAhead(w.app.baseUrl, w.team, {
    hoursAhead: (hours += 3),
    attendeeEmail: `ada-${hours}@example.com`,
    eventType: { location_type: 'video_provider_1', ...eventType },
  });
  expect(res.status).toBe(201);
  return res.body.meeting as { id: string; start_time: string; meeting_link: string | null };
}
const linkOf = (id: string) =>
  eventually(async () => (await w.tdb.db('meetings').where({ id }).first())?.meeting_link, `the Zoom link of ${id}`);
const byMarker = (id: string) => [...zoom.meetings.values()].filter((m) => m.agenda.includes(zoomMarker(id)));

test('a booking makes one scheduled Zoom meeting (S2S token, host by email); its join URL is the link', async () => {
  const m = await book({ ai_notes_enabled: true });
  expect(m.meeting_link).toBeNull(); // Zoom makes the link: the workflow, not the booking request
  const link = await linkOf(m.id);
  const made = byMarker(m.id);
  expect(made).toHaveLength(1);
  expect(link).toBe(made[0].join_url);
  expect(made[0]).toMatchObject({
    userId: w.team.email,
    topic: expect.stringContaining('with Ada Attendee'),
    start_time: m.start_time.replace(/\.\d{3}Z$/, 'Z'),
    duration: 30,
    timezone: 'UTC',
    settings: { auto_recording: 'cloud' },
  });
  const token = zoom.calls.find((c) => c.path === '/oauth/token')!;
  expect(token.authorization).toBe(`Basic ${Buffer.from('s2s-client:s2s-secret').toString('base64')}`);
  const row = (await w.tdb.db('zoom_meetings').where({ meeting_id: m.id }).first())!;
  expect(row).toMatchObject({ zoom_meeting_id: String(made[0].id), cloud_recording: true, connection_id: null });
  // the confirmation email carries the Zoom link
  const mail = await eventually(
    () => w.smtp.messages.find((x) => x.to === `ada-${hours}@example.com` && x.parsed.headers.get('x-meeting-email') === 'confirmation'),
    'the confirmation',
  );
  expect(mail.parsed.text).toContain(link);
});

test('a create whose answer was lost is found by its marker on the retry: still one meeting', async () => {
  zoom.state.dropNextCreate = true;
  const m = await book();
  const link = await linkOf(m.id);
  expect(byMarker(m.id)).toHaveLength(1);
  expect(byMarker(m.id)[0]).toMatchObject({ join_url: link, settings: { auto_recording: 'none' } });
  const posts = zoom.calls.filter((c) => c.method === 'POST' && c.body?.agenda === zoomMarker(m.id));
  expect(posts).toHaveLength(1);
  expect(
    zoom.calls.some((c) => c.method === 'GET' && c.path.startsWith(`/v2/users/${encodeURIComponent(w.team.email)}/meetings?type=upcoming`)),
  ).toBe(true);
});

test("a 429 is retried after Zoom's Retry-After, and makes no second meeting", async () => {
  zoom.script.push({ status: 429, headers: { 'retry-after': '2', 'x-ratelimit-type': 'QPS' } });
  const before = zoom.calls.length;
  const m = await book();
  await linkOf(m.id);
  const apiCalls = zoom.calls.slice(before).filter((c) => c.path.startsWith('/v2/'));
  const refused = apiCalls[0];
  const next = apiCalls[1];
  expect(next.at - refused.at).toBeGreaterThanOrEqual(2000);
  expect(byMarker(m.id)).toHaveLength(1);
});

test('a reschedule patches the same Zoom meeting; a cancel deletes it, and a 404 counts as done', async () => {
  const api = w.api;
  const m = await book();
  const link = await linkOf(m.id);
  const zoomId = byMarker(m.id)[0].id;
  const newStart = new Date(new Date(m.start_time).getTime() + 3_600_000).toISOString();
  const moved = await api.patch(`/api/v1/meetings/${m.id}`, { start_time: newStart });
  expect(moved.status).toBe(200);
  const nextId = moved.body.data.rescheduled_to_id as string;
  await eventually(() => zoom.meetings.get(zoomId)?.start_time === newStart.replace(/\.\d{3}Z$/, 'Z'), 'the patched start');
  expect(zoom.calls.some((c) => c.method === 'PATCH' && c.path === `/v2/meetings/${zoomId}`)).toBe(true);
  expect(byMarker(m.id)).toHaveLength(1);
  expect((await w.tdb.db('meetings').where({ id: nextId }).first())!.meeting_link).toBe(link);

  const cancelled = await api.patch(`/api/v1/meetings/${nextId}`, { status: 'cancelled' });
  expect(cancelled.status).toBe(200);
  await eventually(() => !zoom.meetings.has(zoomId), 'the Zoom meeting deleted');
  // the row goes once the activity has Zoom's answer, a moment after the stand-in has dropped the meeting
  await eventually(
    async () => (await w.tdb.db('zoom_meetings').where({ meeting_id: nextId }).first()) === undefined,
    'the zoom_meetings row removed',
  );

  // a meeting Zoom no longer has: the delete answers 404 and the step is done
  const gone = await book();
  await linkOf(gone.id);
  zoom.meetings.delete(byMarker(gone.id)[0].id);
  expect(await removeZoomMeeting({ db: w.tdb.db, config: w.app.config }, { meetingId: gone.id })).toBe(true);
  expect(await w.tdb.db('zoom_meetings').where({ meeting_id: gone.id }).first()).toBeUndefined();
});
