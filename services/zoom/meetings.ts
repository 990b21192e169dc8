import { logger } from '../../core/logger';
import {
  createZoomMeeting,
  deleteZoomMeeting,
  findZoomMeetingByMarker,
  moveZoomMeeting,
  type ZoomMeetingMade,
} from '../../core/video/zoom';
import { ZoomPermanentError } from '../../core/video/zoom-api';
import type { Executor } from '../../db/knex';
import type { ServiceDeps } from '../deps';
import type { MeetingRow } from '../meetings/row';
import { zoomAccessFor, zoomCallFor, type ZoomConfig } from './tokens';

type Deps = Pick<ServiceDeps, 'db'> & { config: ZoomConfig };
type Meeting = Pick<MeetingRow, 'id' | 'team_id' | 'host_user_id' | 'title' | 'start_time' | 'end_time' | 'timezone'>;

/** What the agenda carries so a retry finds the meeting its lost create answer made. */
export const zoomMarker = (meetingId: string) => `fss-meeting:${meetingId}`;

const planOf = (m: Meeting) => ({
  topic: m.title,
  start: new Date(m.start_time),
  durationMinutes: Math.max(1, Math.round((new Date(m.end_time).getTime() - new Date(m.start_time).getTime()) / 60_000)),
  timezone: m.timezone ?? 'UTC',
});

/**
 * The booking workflow's video step for a Zoom meeting (docs/scheduling.md "Zoom"), safe to run
 * again: the intent row (host, marker) is written before any call; a stored Zoom meeting id is
 * patched to the meeting's time (a reschedule carried it over: the same Zoom meeting, moved); without
 * one, the host's upcoming meetings are searched for the marker before a meeting is created, and
 * the new id is stored the moment Zoom answers. The join URL becomes the meeting link.
 */
export async function ensureZoomMeeting(deps: Deps, input: { meeting: Meeting; record: boolean }): Promise<string> {
  try {
    return await ensure(deps, input);
  } catch (err) {
    // a refusal (bad host, revoked connection) never holds up the booking: it goes on without a link
    if (!(err instanceof ZoomPermanentError)) throw err;
    logger.warn({ meetingId: input.meeting.id, error: err.message }, 'Zoom refused the meeting; the booking has no link');
    return 'refused';
  }
}

async function ensure(deps: Deps, input: { meeting: Meeting; record: boolean }): Promise<string> {
  const { db } = deps;
  const m = input.meeting;
  const access = await zoomAccessFor(deps, { hostUserId: m.host_user_id });
  if (!access) {
    logger.warn({ meetingId: m.id, hostUserId: m.host_user_id }, 'Zoom: the host has no Zoom connection; the meeting has no link');
    return 'not_connected';
  }
  await db('zoom_meetings')
    .insert({ meeting_id: m.id, team_id: m.team_id, zoom_user: access.user, connection_id: access.connectionId, marker: zoomMarker(m.id) })
    .onConflict('meeting_id')
    .ignore();
  const row = (await db('zoom_meetings').where({ meeting_id: m.id }).first())!;
  if (row.zoom_meeting_id) {
    if (await moveZoomMeeting(access.call, row.zoom_meeting_id, planOf(m))) return 'patched';
    // deleted in Zoom meanwhile: a new one is made below
    await db('zoom_meetings').where({ meeting_id: m.id }).update({ zoom_meeting_id: null, join_url: null });
  }
  const made: ZoomMeetingMade =
    (await findZoomMeetingByMarker(access.call, row.zoom_user, row.marker)) ??
    (await createZoomMeeting(access.call, row.zoom_user, { ...planOf(m), record: input.record, marker: row.marker }));
  await db.transaction(async (trx) => {
    await trx('zoom_meetings')
      .where({ meeting_id: m.id })
      .update({
        zoom_meeting_id: made.id,
        join_url: made.joinUrl,
        cloud_recording: input.record ? made.cloudRecording : null,
        deleted_in_zoom_at: null,
        updated_at: trx.fn.now(),
      });
    await trx('meetings').where({ id: m.id }).update({ meeting_link: made.joinUrl, updated_at: trx.fn.now() });
  });
  return 'created';
}

/** The cleanup's video step: delete the Zoom meeting (a 404 counts as done), then its row. */
export async function removeZoomMeeting(deps: Deps, input: { meetingId: string }): Promise<boolean> {
  const row = await deps.db('zoom_meetings').where({ meeting_id: input.meetingId }).first();
  if (!row) return false;
  if (row.zoom_meeting_id && !row.deleted_in_zoom_at) {
    try {
      const access = await zoomCallFor(deps, { connectionId: row.connection_id });
      if (access) await deleteZoomMeeting(access.call, row.zoom_meeting_id);
    } catch (err) {
      if (!(err instanceof ZoomPermanentError)) throw err;
      logger.warn({ meetingId: input.meetingId, error: err.message }, 'Zoom refused to delete the meeting; left as it is');
    }
  }
  await deps.db('zoom_meetings').where({ meeting_id: input.meetingId }).delete();
  return true;
}

/** A reschedule (in its transaction): the new meeting keeps the old one's Zoom meeting, which its workflow moves. */
export async function carryZoomMeeting(trx: Executor, input: { fromId: string; toId: string }): Promise<void> {
  await trx('zoom_meetings').where({ meeting_id: input.fromId }).update({ meeting_id: input.toId, updated_at: trx.fn.now() });
}
