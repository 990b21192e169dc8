import { temporal } from '@temporalio/proto';
import { RECORDING_NOTICE } from '../../services/mail/render/scheduling';
import { eventually } from '../helpers/smtp';
import { startWorld, type World } from '../sequences/support/world';
import { startReceiver } from '../webhooks/receiver';
import { alwaysAvailable, bookHoursAhead } from './helpers';
import { startDailyStandin } from './support/daily-standin';
import { startOpenAiStandin } from './support/openai-standin';

/**
 * After the meeting, end to end: book through the public endpoint, let the meeting end on the
 * time-skipping test server, and find the recording and the AI notes on the meeting, in the list,
 * and in the two webhooks. Daily and the notes provider are stand-ins of their documented APIs
 * (test/scheduling/support/).
 */
const T = temporal.api.enums.v1.EventType;
let w: World;
let daily: Awaited<ReturnType<typeof startDailyStandin>>;
let ai: Awaited<ReturnType<typeof startOpenAiStandin>>;
let rx: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  daily = await startDailyStandin('daily-key');
  ai = await startOpenAiStandin('ai-key');
  rx = await startReceiver();
  w = await startWorld({
    appEnv: {
      VIDEO_PROVIDER_1_ADAPTER: 'daily',
      VIDEO_PROVIDER_1_URL_TEMPLATE: 'https://example-team.daily.co/{room}',
      DAILY_API_URL: daily.url,
      DAILY_API_KEY: 'daily-key',
      AI_NOTES_API_URL: ai.url,
      AI_NOTES_API_KEY: 'ai-key',
      AI_NOTES_MAX_INPUT_CHARS: '600',
    },
  });
  await alwaysAvailable(w.tdb.db, w.team.userId);
  const hook = await w.api.post('/api/v1/webhooks', { url: rx.url, events: ['meeting.recording_ready', 'meeting.notes_ready'] });
  expect(hook.status).toBe(201);
}, 60_000);
afterAll(async () => {
  await w?.close();
  await daily?.close();
  await ai?.close();
  await rx?.close();
});

let hours = 30;
async function book(eventType: Record<string, unknown>): Promise<string> {
  const { res } = await bookHoursAhead(w.app.baseUrl, w.team, {
    hoursAhead: (hours += 3),
    attendeeEmail: `ada-${hours}@example.com`,
    eventType,
  });
  expect(res.status).toBe(201);
  return res.body.meeting.id as string;
}
const handle = (id: string) => w.env.client.workflow.getHandle(id);
/** The booking workflow runs to its end (time skips), then the follow-up it started. */
async function followup(id: string): Promise<string> {
  await w.waitStarted(`booking-${id}`);
  expect(await handle(`booking-${id}`).result()).toBe('completed');
  await w.waitStarted(`meeting-followup-${id}`);
  return handle(`meeting-followup-${id}`).result();
}

const VTT = [
  'WEBVTT',
  '',
  ...Array.from({ length: 24 }, (_, i) => [
    `00:${String(i).padStart(2, '0')}:00.000 --> 00:${String(i).padStart(2, '0')}:30.000`,
    i % 8 === 0 ? `<v Bob>ACTION: follow-up task ${i}` : `<v Ada>We talked about point ${i} of the proposal at some length.`,
    '',
  ]).flat(),
].join('\n');

test('Daily: the recording (processing, then ready) and the transcript become notes; both webhooks are delivered', async () => {
  ai.script.push({ status: 429, headers: { 'retry-after': '40' } }, { content: '{"summary": 3}' });
  daily.state.processingPolls = 1;
  const id = await book({ location_type: 'video_provider_1', ai_notes_enabled: true });
  const m = (await w.tdb.db('meetings').where({ id }).first())!;
  const room = m.meeting_link!.split('/').pop()!;
  daily.vtt.set(room, VTT);
  const confirmation = await eventually(
    () => w.smtp.messages.find((x) => x.to === m.attendee_email && x.parsed.headers.get('x-meeting-email') === 'confirmation'),
    'the confirmation email',
  );
  expect(confirmation.parsed.text).toContain(RECORDING_NOTICE.trim());

  expect(await followup(id)).toBe('notes: stored');

  // asked twice for the recording (in progress, then finished), on the workflow's backoff
  expect(daily.calls.filter((c) => c.path === `/v1/recordings?room_name=${room}`)).toHaveLength(2);
  const got = await w.api.get(`/api/v1/meetings/${id}`);
  expect(got.status).toBe(200);
  expect(got.body.data.recording).toEqual({
    url: expect.stringMatching(/^https:\/\/download\.example\.com\/rec-.*token=\d+$/),
    duration_seconds: 1740,
  });
  expect(got.body.data.recording_reason).toBeNull();
  // Minted fresh when read, then answered again for a while (recording-link.ts): one call for two reads.
  const mints = () => daily.calls.filter((c) => /^\/v1\/recordings\/[^/]+\/access-link$/.test(c.path)).length;
  const mintedBefore = mints();
  const again = await w.api.get(`/api/v1/meetings/${id}`);
  expect(again.body.data.recording.url).toBe(got.body.data.recording.url);
  expect(mints()).toBe(mintedBefore);
  expect(got.body.data.ai_notes.action_items).toEqual(['follow-up task 0', 'follow-up task 8', 'follow-up task 16']);
  expect(got.body.data.ai_notes.summary).toMatch(/^Combined notes of \d+ parts$/);
  const list = await w.api.get('/api/v1/meetings?limit=100');
  expect(list.body.data.find((x: { id: string }) => x.id === id).ai_notes).toEqual(got.body.data.ai_notes);

  // the notes provider: a 429 (its Retry-After honoured by the activity retry), a malformed answer asked again, parts
  const history = await handle(`meeting-followup-${id}`).fetchHistory();
  const notesScheduled = history.events!.find(
    (e) =>
      e.eventType === T.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED &&
      e.activityTaskScheduledEventAttributes!.activityType!.name === 'writeMeetingNotes',
  )!;
  const notesStarted = history.events!.find(
    (e) =>
      e.eventType === T.EVENT_TYPE_ACTIVITY_TASK_STARTED &&
      e.activityTaskStartedEventAttributes!.scheduledEventId?.toString() === notesScheduled.eventId!.toString(),
  )!;
  expect(notesStarted.activityTaskStartedEventAttributes!.attempt).toBe(2);
  const secs = (e: typeof notesStarted) => Number(e.eventTime!.seconds);
  expect(secs(notesStarted) - secs(notesScheduled)).toBeGreaterThanOrEqual(40);
  expect(ai.requests.length).toBeGreaterThanOrEqual(5); // 429, malformed, ≥ 2 parts, the combination

  // the transcript is kept sealed
  const t = (await w.tdb.db('meeting_transcripts').where({ meeting_id: id }).first())!;
  expect(t.sealed.startsWith('v1.')).toBe(true);
  expect(t.sealed).not.toContain('ACTION');

  await rx.waitFor(2);
  const bodies = rx.received.map((r) => JSON.parse(r.body));
  expect(bodies.find((b) => b.event === 'meeting.recording_ready')).toMatchObject({
    data: { meeting_id: id, source: 'provider', recording: { duration_seconds: 1740 } },
  });
  expect(bodies.find((b) => b.event === 'meeting.notes_ready')).toMatchObject({
    data: { meeting_id: id, ai_notes: got.body.data.ai_notes },
  });
});

test('a URL-template room has no recording and says why; an integrator brings the transcript and the recording', async () => {
  const id = await book({ location_type: 'video_provider_2', ai_notes_enabled: true });
  expect(await followup(id)).toBe('notes: no_transcript');
  const got = await w.api.get(`/api/v1/meetings/${id}`);
  expect(got.body.data).toMatchObject({
    recording: null,
    recording_reason: 'provider_has_no_api',
    ai_notes: null,
    ai_notes_reason: 'no_transcript',
  });

  const posted = await w.api.post(`/api/v1/meetings/${id}/transcript`, {
    format: 'text',
    content: 'Ada: fine\nBob: ACTION: sign the contract',
  });
  expect(posted.status).toBe(202);
  const notesId = (
    await eventually(() => w.tdb.db('outbox').where('workflow_id', 'like', `meeting-notes-${id}-%`).first(), 'the notes start')
  ).workflow_id;
  await w.waitStarted(notesId);
  expect(await handle(notesId).result()).toBe('stored');
  const put = await w.api.put(`/api/v1/meetings/${id}/recording`, { url: 'https://videos.example.org/call.mp4', duration_seconds: 900 });
  expect(put.status).toBe(200);
  const read = await w.api.get(`/api/v1/meetings/${id}`);
  expect(read.body.data).toMatchObject({
    recording: { url: 'https://videos.example.org/call.mp4', duration_seconds: 900 },
    recording_reason: null,
    ai_notes: { summary: 'Discussed 2 lines', action_items: ['sign the contract'] },
    ai_notes_reason: null,
  });
});

test('a no-show skips the follow-up; a cancelled meeting never starts one; AI notes off sends nothing', async () => {
  // marked completed by hand before the end (the follow-up starts, waiting for the end), then no-show:
  // no time passes between the two PATCHes, since only waiting on a result lets the test server skip it
  const noShow = await book({ location_type: 'video_provider_1', ai_notes_enabled: true });
  await w.waitStarted(`booking-${noShow}`);
  expect((await w.api.patch(`/api/v1/meetings/${noShow}`, { status: 'completed' })).status).toBe(200);
  expect((await w.api.patch(`/api/v1/meetings/${noShow}`, { status: 'no_show' })).status).toBe(200);
  await w.waitStarted(`meeting-followup-${noShow}`);
  expect(await handle(`meeting-followup-${noShow}`).result()).toBe('skipped: no_show');
  const room = (await w.tdb.db('meetings').where({ id: noShow }).first())!.meeting_link!.split('/').pop();
  expect(daily.calls.some((c) => c.path.includes(`room_name=${room}`))).toBe(false);
  expect((await w.api.get(`/api/v1/meetings/${noShow}`)).body.data).toMatchObject({
    recording_reason: 'not_held',
    ai_notes_reason: 'not_held',
  });

  const cancelled = await book({ location_type: 'video_provider_1' });
  await w.waitStarted(`booking-${cancelled}`);
  expect((await w.api.patch(`/api/v1/meetings/${cancelled}`, { status: 'cancelled' })).status).toBe(200);
  // woken by the signal ('cancelled'), or it found the meeting cancelled at the end ('unchanged'): never completed
  expect(['cancelled', 'unchanged']).toContain(await handle(`booking-${cancelled}`).result());
  expect(await w.tdb.db('outbox').where({ workflow_id: `meeting-followup-${cancelled}` })).toHaveLength(0);

  const requestsBefore = ai.requests.length;
  const off = await book({ location_type: 'video_provider_1' });
  const offRoom = (await w.tdb.db('meetings').where({ id: off }).first())!.meeting_link!.split('/').pop()!;
  daily.vtt.set(offRoom, VTT);
  expect(await followup(off)).toBe('notes: disabled');
  const offRoomId = daily.rooms.get(offRoom)!.id as string;
  expect(daily.calls.some((c) => c.path.includes(`roomId=${offRoomId}`))).toBe(false); // no transcript asked for
  expect(await w.tdb.db('meeting_transcripts').where({ meeting_id: off })).toHaveLength(0);
  expect(ai.requests.length).toBe(requestsBefore);
  expect((await w.api.get(`/api/v1/meetings/${off}`)).body.data).toMatchObject({ ai_notes: null, ai_notes_reason: 'disabled' });
});
