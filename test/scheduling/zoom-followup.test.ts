import { startReceiver } from '../webhooks/receiver';
import { eventually } from '../helpers/smtp';
import { startZoomStandin } from '../helpers/zoom-standin';
import { startWorld, type World } from '../sequences/support/world';
import { alwaysAvailable, bookHoursAhead } from './helpers';
import { startOpenAiStandin } from './support/openai-standin';

/**
 * After a Zoom meeting, end to end (per installation: S2S OAuth): book → a Zoom meeting with its
 * link → the meeting ends → Zoom's recording.completed and recording.transcript_completed arrive,
 * signed as Zoom signs them → the recording and the AI notes are on GET /api/v1/meetings/{id}, and
 * the two webhooks are delivered. No polling of Zoom: the follow-up waits for the events and its
 * details say which. Also: the URL validation, a forged signature, a stale timestamp, meeting.deleted,
 * and a free account without cloud recording.
 */
const ZOOM = { clientId: 's2s-client', clientSecret: 's2s-secret', accountId: 'acc-1', secretToken: 'zm-secret' };
let w: World;
let zoom: Awaited<ReturnType<typeof startZoomStandin>>;
let ai: Awaited<ReturnType<typeof startOpenAiStandin>>;
let rx: Awaited<ReturnType<typeof startReceiver>>;
let hookUrl: string;

beforeAll(async () => {
  zoom = await startZoomStandin(ZOOM);
  ai = await startOpenAiStandin('ai-key');
  rx = await startReceiver();
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
      MEETING_FOLLOWUP_GRACE_MINUTES: '0',
      AI_NOTES_API_URL: ai.url,
      AI_NOTES_API_KEY: 'ai-key',
    },
  });
  hookUrl = `${w.app.baseUrl}/api/hooks/zoom`;
  await alwaysAvailable(w.tdb.db, w.team.userId);
  const hook = await w.api.post('/api/v1/webhooks', { url: rx.url, events: ['meeting.recording_ready', 'meeting.notes_ready'] });
  expect(hook.status).toBe(201);
}, 60_000);
afterAll(async () => {
  await w?.close();
  await zoom?.close();
  await ai?.close();
  await rx?.close();
});

let hours = 30;
async function bookZoom(eventType: Record<string, unknown> = {}) {
  const { res } = await bookHoursAhead(w.app.baseUrl, w.team, {
    hoursAhead: (hours += 3),
    attendeeEmail: `ada-${hours}@example.com`,
    eventType: { location_type: 'video_provider_1', ...eventType },
  });
  expect(res.status).toBe(201);
  const id = res.body.meeting.id as string;
  const link = await eventually(async () => (await w.tdb.db('meetings').where({ id }).first())?.meeting_link, 'the Zoom link');
  const zoomId = Number((await w.tdb.db('zoom_meetings').where({ meeting_id: id }).first())!.zoom_meeting_id);
  return { id, link, zoomId };
}
const handle = (id: string) => w.env.client.workflow.getHandle(id);
/** The booking workflow runs to the end (time skips), marks it completed and starts the follow-up. */
async function meetingEnds(id: string): Promise<void> {
  await w.waitStarted(`booking-${id}`);
  expect(await handle(`booking-${id}`).result()).toBe('completed');
  await w.waitStarted(`meeting-followup-${id}`);
}
const details = async (id: string) =>
  (await handle(`meeting-followup-${id}`).query<{ currentDetails?: string }>('__temporal_workflow_metadata')).currentDetails ?? '';
const waitingFor = (id: string, text: string) =>
  eventually(async () => (await details(id)).includes(text) && (await details(id)), `the follow-up waiting for ${text}`);

const VTT = [
  'WEBVTT',
  '',
  '00:00:01.000 --> 00:00:04.000',
  '<v Ada>We agreed on the plan.',
  '',
  '00:00:05.000 --> 00:00:09.000',
  '<v Bob>ACTION: send the quote by Friday',
  '',
].join('\n');

test("Zoom's URL validation is answered with the HMAC of plainToken; forged and stale requests are refused", async () => {
  const ok = await zoom.deliver(hookUrl, {
    event: 'endpoint.url_validation',
    payload: { plainToken: 'qgg8vlvZRS6UYooatFL8Aw' },
    event_ts: Date.now(),
  });
  expect(ok.status).toBe(200);
  const crypto = await import('node:crypto');
  expect(ok.body).toEqual({
    plainToken: 'qgg8vlvZRS6UYooatFL8Aw',
    encryptedToken: crypto.createHmac('sha256', ZOOM.secretToken).update('qgg8vlvZRS6UYooatFL8Aw').digest('hex'),
  });
  const forged = await zoom.deliver(
    hookUrl,
    { event: 'endpoint.url_validation', payload: { plainToken: 'x' } },
    { secret: 'not-the-secret' },
  );
  expect(forged.status).toBe(401);
  expect(forged.body.error.code).toBe('invalid_token');
  expect(forged.body.error.message).toMatch(/signature/);
  const stale = await zoom.deliver(
    hookUrl,
    { event: 'endpoint.url_validation', payload: { plainToken: 'x' } },
    { timestamp: Math.floor(Date.now() / 1000) - 600 },
  );
  expect(stale.status).toBe(401);
  expect(stale.body.error.message).toMatch(/timestamp/);
  const unsigned = await fetch(hookUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"event":"meeting.deleted","payload":{}}',
  });
  expect(unsigned.status).toBe(401);
});

test('book → Zoom meeting → it ends → recording.completed and recording.transcript_completed → recording and notes, both webhooks', async () => {
  const { id, link, zoomId } = await bookZoom({ ai_notes_enabled: true });
  expect(link).toBe(zoom.meetings.get(zoomId)!.join_url);
  await meetingEnds(id);
  expect(await waitingFor(id, "waiting for Zoom's recording.completed and recording.transcript_completed")).toMatch(/\(webhook\)/);

  const events = zoom.endMeeting(zoomId, { vtt: VTT, durationMinutes: 29 });
  // a forged copy of the event changes nothing
  expect((await zoom.deliver(hookUrl, events.completed, { secret: 'forged' })).status).toBe(401);
  expect((await w.tdb.db('zoom_meetings').where({ meeting_id: id }).first())!.recording_id).toBeNull();
  const first = await zoom.deliver(hookUrl, events.completed);
  expect(first).toEqual({ status: 200, body: { outcome: 'signalled' } });
  await waitingFor(id, "waiting for Zoom's recording.transcript_completed");
  expect((await zoom.deliver(hookUrl, events.transcript)).body).toEqual({ outcome: 'signalled' });
  expect(await handle(`meeting-followup-${id}`).result()).toBe('notes: stored');

  const got = await w.api.get(`/api/v1/meetings/${id}`);
  expect(got.status).toBe(200);
  expect(got.body.data.recording).toEqual({
    url: expect.stringMatching(new RegExp(`^${zoom.url}/rec/download/rec-${zoomId}-mp4\\?access_token=[0-9a-f]+$`)),
    duration_seconds: 29 * 60,
  });
  // the link works: the stand-in serves the file to the download_access_token
  expect((await fetch(got.body.data.recording.url)).status).toBe(200);
  expect(got.body.data.ai_notes).toEqual({ summary: expect.any(String), action_items: ['send the quote by Friday'] });
  const sealed = (await w.tdb.db('meeting_transcripts').where({ meeting_id: id }).first())!.sealed;
  expect(sealed.startsWith('v1.')).toBe(true);
  expect(sealed).not.toContain('quote');
  // no polling: Zoom was asked for the transcript file once, and never for a recordings list before the read
  expect(zoom.calls.filter((c) => c.path === `/rec/download/rec-${zoomId}-vtt`)).toHaveLength(1);

  await rx.waitFor(2);
  const bodies = rx.received.map((r) => JSON.parse(r.body));
  expect(bodies.find((b) => b.event === 'meeting.recording_ready')).toMatchObject({
    data: { meeting_id: id, recording: { duration_seconds: 1740 } },
  });
  expect(bodies.find((b) => b.event === 'meeting.notes_ready')).toMatchObject({
    data: { meeting_id: id, ai_notes: got.body.data.ai_notes },
  });
});

test('a free account keeps no cloud recording: the meeting says why', async () => {
  zoom.state.freeAccount = true;
  const { id } = await bookZoom({ ai_notes_enabled: true });
  zoom.state.freeAccount = false;
  await meetingEnds(id);
  expect(await handle(`meeting-followup-${id}`).result()).toBe('notes: no_transcript');
  expect((await w.api.get(`/api/v1/meetings/${id}`)).body.data).toMatchObject({ recording: null, recording_reason: 'cloud_recording_off' });
});

test('meeting.deleted in Zoom: the booking stands without its link, the follow-up stops waiting, the cleanup calls no Zoom', async () => {
  const { id, zoomId } = await bookZoom({ ai_notes_enabled: true });
  await meetingEnds(id);
  await waitingFor(id, "waiting for Zoom's recording.completed");
  zoom.meetings.delete(zoomId);
  const res = await zoom.deliver(hookUrl, {
    event: 'meeting.deleted',
    event_ts: Date.now(),
    payload: { account_id: ZOOM.accountId, object: { id: zoomId, uuid: `uuid-${zoomId}` } },
  });
  expect(res.body).toEqual({ outcome: 'recorded' });
  expect(await handle(`meeting-followup-${id}`).result()).toBe('notes: no_transcript');
  expect((await w.api.get(`/api/v1/meetings/${id}`)).body.data).toMatchObject({
    status: 'completed',
    meeting_link: null,
    recording: null,
    recording_reason: 'video_meeting_deleted',
  });
  const deletes = zoom.calls.filter((c) => c.method === 'DELETE').length;
  expect((await w.api.delete(`/api/v1/meetings/${id}`)).status).toBe(204);
  await eventually(async () => !(await w.tdb.db('zoom_meetings').where({ meeting_id: id }).first()), 'the Zoom row removed by the cleanup');
  expect(zoom.calls.filter((c) => c.method === 'DELETE').length).toBe(deletes);
});
