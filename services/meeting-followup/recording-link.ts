import { videoProvider } from '../../core/video';
import { logger } from '../../core/logger';
import type { MeetingRecording } from '../../domain/meeting-followup';
import type { ServiceDeps } from '../deps';
import type { MeetingRow } from '../scheduling/present';

/**
 * The recording as it is read: a provider's access links expire (Daily's after a few hours), so a
 * recording the provider keeps gets a fresh link minted on every read of the meeting
 * (docs/scheduling.md "After the meeting"). When the provider cannot be reached, the link stored
 * with the recording is answered (it may have expired). An integrator's URL is answered as given.
 */
export async function freshRecording(deps: Pick<ServiceDeps, 'config'>, input: { meeting: MeetingRow }): Promise<MeetingRecording | null> {
  const m = input.meeting;
  if (!m.recording || !m.recording_provider_id) return m.recording;
  const provider = videoProvider(deps.config, m.location_type);
  if (!provider?.recordingLink) return m.recording;
  try {
    return { ...m.recording, url: await provider.recordingLink(m.recording_provider_id) };
  } catch (err) {
    logger.warn({ meetingId: m.id, error: String(err) }, 'recording link: the provider could not mint a fresh one');
    return m.recording;
  }
}
