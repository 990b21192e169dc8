import { z } from 'zod';
import { TRANSCRIPT_DOWNLOAD } from './daily-recordings';
import { zoomFetch, zoomJson, ZoomPermanentError, type ZoomCall } from './zoom-api';

/**
 * Zoom's meetings and cloud recordings (docs/scheduling.md "Zoom"), given a call with a valid access
 * token (services/zoom/tokens.ts makes it). Pages followed:
 * developers.zoom.us/docs/api/meetings/#tag/meetings (create, list, update, delete a meeting) and
 * …/#tag/cloud-recording (get meeting recordings, `include_fields=download_access_token`).
 */

export interface ZoomMeetingPlan {
  topic: string;
  start: Date;
  durationMinutes: number;
  timezone: string;
  /** The event type has AI notes on: record to the cloud (with Zoom's audio transcript). */
  record: boolean;
  /** Written into the agenda, so a retry finds a meeting whose create answer was lost. */
  marker: string;
}

export interface ZoomMeetingMade {
  id: string;
  joinUrl: string;
  /** Zoom kept `auto_recording: cloud` (a free account gets `none` or `local` instead). */
  cloudRecording: boolean;
}

const made = z.object({
  id: z.union([z.number(), z.string()]),
  join_url: z.string(),
  agenda: z.string().optional(),
  settings: z.object({ auto_recording: z.string().optional() }).optional(),
});
const list = z.object({ meetings: z.array(made), next_page_token: z.string().optional() });

const zoomTime = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');
const madeOf = (m: z.infer<typeof made>): ZoomMeetingMade => ({
  id: String(m.id),
  joinUrl: m.join_url,
  cloudRecording: m.settings?.auto_recording === 'cloud',
});

/** `GET /users/{userId}/meetings?type=upcoming`, page by page: the meeting whose agenda holds the marker. */
export async function findZoomMeetingByMarker(call: ZoomCall, user: string, marker: string): Promise<ZoomMeetingMade | null> {
  let token = '';
  for (let page = 0; page < 20; page++) {
    const q = `type=upcoming&page_size=300${token ? `&next_page_token=${encodeURIComponent(token)}` : ''}`;
    const got = await zoomJson(await call('GET', `/users/${encodeURIComponent(user)}/meetings?${q}`), list, 'list meetings');
    const hit = got.meetings.find((m) => m.agenda?.includes(marker));
    if (hit) return madeOf(hit);
    if (!got.next_page_token) return null;
    token = got.next_page_token;
  }
  return null;
}

/** `POST /users/{userId}/meetings`: one scheduled meeting (type 2). */
export async function createZoomMeeting(call: ZoomCall, user: string, plan: ZoomMeetingPlan): Promise<ZoomMeetingMade> {
  const res = await call('POST', `/users/${encodeURIComponent(user)}/meetings`, {
    topic: plan.topic.slice(0, 200),
    type: 2,
    start_time: zoomTime(plan.start),
    duration: plan.durationMinutes,
    timezone: plan.timezone,
    agenda: plan.marker,
    settings: { auto_recording: plan.record ? 'cloud' : 'none' },
  });
  return madeOf(await zoomJson(res, made, 'create meeting'));
}

/** `PATCH /meetings/{meetingId}`: the new time; false when Zoom no longer has the meeting (404). */
export async function moveZoomMeeting(
  call: ZoomCall,
  id: string,
  plan: Pick<ZoomMeetingPlan, 'topic' | 'start' | 'durationMinutes' | 'timezone'>,
): Promise<boolean> {
  const res = await call('PATCH', `/meetings/${encodeURIComponent(id)}`, {
    topic: plan.topic.slice(0, 200),
    start_time: zoomTime(plan.start),
    duration: plan.durationMinutes,
    timezone: plan.timezone,
  });
  return res.status !== 404;
}

/** `DELETE /meetings/{meetingId}`: a 404 counts as done. */
export async function deleteZoomMeeting(call: ZoomCall, id: string): Promise<void> {
  await call('DELETE', `/meetings/${encodeURIComponent(id)}?schedule_for_reminder=false`);
}

const recordings = z.object({
  download_access_token: z.string().optional(),
  recording_files: z.array(z.object({ id: z.string().optional(), download_url: z.string(), file_type: z.string().optional() })).optional(),
});

/**
 * A working link to one recording file: its `download_url` with the meeting's
 * `download_access_token` (valid for that meeting's recordings only, never the app's own token).
 */
export async function zoomRecordingLink(call: ZoomCall, meetingId: string, recordingId: string): Promise<string | null> {
  const res = await call('GET', `/meetings/${encodeURIComponent(meetingId)}/recordings?include_fields=download_access_token`);
  if (res.status === 404) return null;
  const got = await zoomJson(res, recordings, 'meeting recordings');
  const file = got.recording_files?.find((f) => f.id === recordingId);
  if (!file || !got.download_access_token) return null;
  const url = new URL(file.download_url);
  url.searchParams.set('access_token', got.download_access_token);
  return url.toString();
}

/** Download a transcript file (VTT) with the access token in the Authorization header. */
export async function downloadZoomFile(accessToken: string, url: string): Promise<string> {
  const init = { method: 'GET', headers: { authorization: `Bearer ${accessToken}` } };
  const res = await zoomFetch(url, init, 'transcript download', TRANSCRIPT_DOWNLOAD);
  if (res.status === 404) throw new ZoomPermanentError(404, 'Zoom transcript download: HTTP 404');
  return res.text();
}
