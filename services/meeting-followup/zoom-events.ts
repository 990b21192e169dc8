import { z } from 'zod';
import { logger } from '../../core/logger';
import { followupWorkflowId, videoProviderEventSignal } from '../../workflows/scheduling/contract';
import { followupStart } from './workflow-starts';
import type { ServiceDeps } from '../deps';
import { purgeZoomConnection } from '../zoom/purge';

/**
 * What Zoom's webhooks say (docs/scheduling.md "Zoom"), after the route checked the signature. Each
 * event only stores what it carries and wakes the meeting's follow-up (signal-with-start through the
 * outbox port): no call to Zoom is made here, the follow-up's activities do the rest.
 */

const file = z.object({
  id: z.string().optional(),
  file_type: z.string().optional(),
  download_url: z.string().optional(),
  recording_start: z.string().optional(),
  recording_end: z.string().optional(),
});
const meetingObject = z.object({
  id: z.union([z.number(), z.string()]),
  duration: z.number().optional(),
  recording_files: z.array(file).optional(),
});
export const zZoomEvent = z.object({
  event: z.string().min(1).max(100),
  event_ts: z.number().optional(),
  payload: z.record(z.string(), z.unknown()).default({}),
});
export type ZoomEvent = z.infer<typeof zZoomEvent>;
const deauthorized = z.object({ account_id: z.string(), user_id: z.string() });

const seconds = (f: z.infer<typeof file>, fallbackMinutes?: number) => {
  const span = f.recording_start && f.recording_end ? Date.parse(f.recording_end) - Date.parse(f.recording_start) : NaN;
  return Number.isFinite(span) ? Math.round(span / 1000) : Math.round((fallbackMinutes ?? 0) * 60);
};

/** The stored Zoom meeting an event names, and the meeting it belongs to. */
async function meetingOf(deps: Pick<ServiceDeps, 'db'>, payload: unknown) {
  const parsed = z.object({ object: meetingObject }).safeParse(payload);
  if (!parsed.success) return null;
  const row = await deps
    .db('zoom_meetings')
    .where({ zoom_meeting_id: String(parsed.data.object.id) })
    .first();
  if (!row) return null;
  const m = await deps.db('meetings').where({ id: row.meeting_id }).first('id', 'team_id', 'title', 'start_time', 'end_time', 'contact_id');
  return m ? { row, meeting: m, object: parsed.data.object } : null;
}

export type ZoomEventOutcome = 'ignored' | 'signalled' | 'recorded' | 'purged';

export async function handleZoomEvent(deps: Pick<ServiceDeps, 'db' | 'outbox'>, input: { event: ZoomEvent }): Promise<ZoomEventOutcome> {
  const { db } = deps;
  const { event, payload } = input.event;
  if (event === 'app_deauthorized') {
    const p = deauthorized.safeParse(payload);
    if (!p.success) return 'ignored';
    const n = await purgeZoomConnection(deps, { zoomUserId: p.data.user_id, zoomAccountId: p.data.account_id });
    return n ? 'purged' : 'ignored';
  }
  if (!['recording.completed', 'recording.transcript_completed', 'meeting.deleted'].includes(event)) return 'ignored';
  const found = await meetingOf(deps, payload);
  if (!found) return 'ignored';
  const { row, meeting, object } = found;
  const files = object.recording_files ?? [];
  if (event === 'recording.completed') {
    const video =
      files.find((f) => f.file_type === 'MP4' && f.id && f.download_url) ??
      files.find((f) => f.id && f.download_url && f.file_type !== 'TRANSCRIPT');
    if (!video) return 'ignored';
    await db('zoom_meetings')
      .where({ meeting_id: row.meeting_id })
      .update({
        recording_id: video.id,
        recording_url: video.download_url,
        recording_seconds: seconds(video, object.duration),
        updated_at: db.fn.now(),
      });
  } else if (event === 'recording.transcript_completed') {
    const vtt = files.find((f) => f.file_type === 'TRANSCRIPT' && f.download_url);
    if (!vtt) return 'ignored';
    await db('zoom_meetings').where({ meeting_id: row.meeting_id }).update({ transcript_url: vtt.download_url, updated_at: db.fn.now() });
  } else {
    // meeting.deleted: the booking stands; its link no longer works, and no recording will come
    await db.transaction(async (trx) => {
      await trx('zoom_meetings')
        .where({ meeting_id: row.meeting_id })
        .update({ deleted_in_zoom_at: trx.fn.now(), updated_at: trx.fn.now() });
      await trx('meetings').where({ id: meeting.id }).update({ meeting_link: null, updated_at: trx.fn.now() });
      await trx('meetings').where({ id: meeting.id }).whereNull('recording').update({ recording_reason: 'video_meeting_deleted' });
    });
    // wake a follow-up that is waiting; none is started for a meeting still to come
    await deps.outbox.signal(followupWorkflowId(meeting.id), videoProviderEventSignal);
    return 'recorded';
  }
  await deps.outbox.signalWithStart(followupStart(meeting), videoProviderEventSignal);
  logger.info({ meetingId: meeting.id, event }, 'Zoom event: the follow-up was signalled');
  return 'signalled';
}
