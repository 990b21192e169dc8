import { logger } from '../../core/logger';
import type { MeetingRecording } from '../../domain/meeting-followup';
import type { ServiceDeps } from '../deps';
import { followupProvider } from '../zoom/followup';
import type { MeetingRow } from '../meetings/row';

/** A minted link is answered again for at most this long, and never within this margin of its expiry. */
export const LINK_REUSE_MS = 10 * 60_000;
const EXPIRY_MARGIN_MS = 5 * 60_000;
const MAX_LINKS = 1000;
/** Links minted by this process, by the provider's recording id (oldest first, bounded). */
const minted = new Map<string, { url: string; until: number }>();

/**
 * The recording as it is read: a provider's access links expire (Daily's after an hour by default),
 * so a recording the provider keeps gets a fresh link when the meeting is read
 * (docs/scheduling.md "After the meeting"). A link minted by this process is answered again for up
 * to ten minutes (and not within five minutes of its expiry), so reads do not each call the provider.
 * When the provider cannot be reached, the link stored with the recording is answered (it may have
 * expired). An integrator's URL is answered as given.
 */
export async function freshRecording(
  deps: Pick<ServiceDeps, 'db' | 'config' | 'video'>,
  input: { meeting: MeetingRow },
): Promise<MeetingRecording | null> {
  const m = input.meeting;
  if (!m.recording || !m.recording_provider_id) return m.recording;
  const provider = followupProvider(deps, { meeting: m });
  if (!provider?.recordingLink) return m.recording;
  const now = Date.now();
  const held = minted.get(m.recording_provider_id);
  if (held && held.until > now) return { ...m.recording, url: held.url };
  try {
    const link = await provider.recordingLink(m.recording_provider_id);
    const until = Math.min(now + LINK_REUSE_MS, (link.expiresAt ?? Infinity) - EXPIRY_MARGIN_MS);
    minted.delete(m.recording_provider_id);
    if (minted.size >= MAX_LINKS) minted.delete(minted.keys().next().value as string);
    minted.set(m.recording_provider_id, { url: link.url, until });
    return { ...m.recording, url: link.url };
  } catch (err) {
    logger.warn({ meetingId: m.id, error: String(err) }, 'recording link: the provider could not mint a fresh one');
    return m.recording;
  }
}
