import type { RecordingLookup, TranscriptLookup, VideoProvider } from '../../core/video';
import { downloadZoomFile, zoomRecordingLink } from '../../core/video/zoom';
import type { ProviderEventsSeen } from '../../workflows/scheduling/contract';
import type { ServiceDeps } from '../deps';
import type { MeetingRow } from '../meetings/row';
import { zoomCallFor, type ZoomConfig } from './tokens';

type Deps = Pick<ServiceDeps, 'db' | 'video'> & { config: ZoomConfig };

/** The provider's recording id of a Zoom file: `<zoom meeting id>/<file id>` (a fresh link needs both). */
const recordingKey = (zoomMeetingId: string, fileId: string) => `${zoomMeetingId}/${fileId}`;

/**
 * The follow-up's view of a Zoom meeting (docs/scheduling.md "Zoom"): no polling; the recording and
 * the transcript are what Zoom's webhooks stored (services/meeting-followup/zoom-events.ts). The transcript file is
 * downloaded with the connection's token; a recording's link is minted on read with the meeting's
 * `download_access_token`.
 */
function zoomFollowupProvider(deps: Deps, meetingId: string): VideoProvider {
  const row = () => deps.db('zoom_meetings').where({ meeting_id: meetingId }).first();
  return {
    planRoom: () => ({ name: '', link: '' }),
    deleteMeeting: async () => undefined,
    async findRecording(): Promise<RecordingLookup> {
      const z = await row();
      if (!z?.zoom_meeting_id || !z.recording_id || !z.recording_url) return { state: 'none' };
      return {
        state: 'ready',
        id: recordingKey(z.zoom_meeting_id, z.recording_id),
        durationSeconds: z.recording_seconds ?? 0,
        url: z.recording_url,
      };
    },
    async findTranscript(): Promise<TranscriptLookup> {
      const z = await row();
      if (!z?.transcript_url) return { state: 'none' };
      const access = await zoomCallFor(deps, { connectionId: z.connection_id });
      if (!access) return { state: 'none' };
      return { state: 'ready', vtt: await downloadZoomFile(access.accessToken, z.transcript_url) };
    },
    async recordingLink(recordingId: string): Promise<{ url: string; expiresAt: number | null }> {
      const [zoomMeetingId, fileId] = recordingId.split('/');
      const z = await row();
      const access = await zoomCallFor(deps, { connectionId: z?.connection_id ?? null });
      const url = access ? await zoomRecordingLink(access.call, zoomMeetingId, fileId ?? '') : null;
      if (!url) throw new Error(`Zoom has no recording ${recordingId} any more`);
      return { url, expiresAt: null };
    },
  };
}

/** The video provider the follow-up asks about a meeting: Zoom's stored events, or the configured adapter. */
export function followupProvider(deps: Deps, input: { meeting: Pick<MeetingRow, 'id' | 'location_type'> }): VideoProvider | null {
  const m = input.meeting;
  return deps.video.adapterOf(m.location_type) === 'zoom' ? zoomFollowupProvider(deps, m.id) : deps.video.providerOf(m.location_type);
}

/**
 * A Zoom meeting at the follow-up's start: why there will be no recording (the host's account kept
 * no cloud recording, the host deleted the meeting in Zoom, the host had no Zoom), or which events
 * to wait for. Null for a meeting of another provider.
 */
export async function zoomFollowupStart(
  deps: Deps,
  input: { meeting: Pick<MeetingRow, 'id' | 'location_type'>; transcript: boolean },
): Promise<{ reason: 'cloud_recording_off' | 'video_meeting_deleted' | 'no_video' | 'not_recorded' } | { waitFor: string[] } | null> {
  if (deps.video.adapterOf(input.meeting.location_type) !== 'zoom') return null;
  const z = await deps.db('zoom_meetings').where({ meeting_id: input.meeting.id }).first();
  if (!z?.zoom_meeting_id) return { reason: 'no_video' };
  if (z.deleted_in_zoom_at) return { reason: 'video_meeting_deleted' };
  // asked for (AI notes on) and refused by the account (a free Zoom account), or never asked for
  if (z.cloud_recording === false) return { reason: 'cloud_recording_off' };
  if (z.cloud_recording === null) return { reason: 'not_recorded' };
  return { waitFor: ['recording.completed', ...(input.transcript ? ['recording.transcript_completed'] : [])] };
}

/** What Zoom's events have brought so far (the follow-up checks after each signal). */
export async function zoomEventsSeen(deps: Pick<ServiceDeps, 'db'>, input: { meetingId: string }): Promise<ProviderEventsSeen> {
  const z = await deps.db('zoom_meetings').where({ meeting_id: input.meetingId }).first();
  return { recording: !!z?.recording_id, transcript: !!z?.transcript_url, deleted: !z || !!z.deleted_in_zoom_at };
}
