import { remoteFetch, RemoteFetchError, type OutboundPolicy } from '../outbound-http';
import type { VideoMeetingDetails, VideoProvider, VideoRoom } from './room';
import { linkFromTemplate, newRoomName } from './room';
import { dailyRecordings } from './daily-recordings';

/** Thrown for an answer worth retrying (5xx, 429, network): the activity's retry policy takes over. */
export class VideoProviderError extends Error {}

const HOUR = 3_600_000;

/**
 * The video provider's outbound policy. The API URL is the operator's setting, not a user's, so
 * loopback and private addresses are allowed (a stand-in or a proxy); link-local and metadata
 * addresses never are. An answer is small JSON: 10 s and 1 MB bound it.
 */
export const VIDEO_OUTBOUND: OutboundPolicy = {
  urlPolicy: { loopback: true, private: true },
  timeoutMs: 10_000,
  maxBytes: 1024 * 1024,
  maxRedirects: 3,
};

/**
 * Daily's REST API (docs.daily.co/reference/rest-api/rooms): `POST /rooms {name, privacy,
 * properties}` creates a room, `DELETE /rooms/:name` removes it, both with `Authorization: Bearer
 * <key>`. The room URL is `https://<your-domain>.daily.co/<name>`, so the link is made from the
 * template in the booking transaction and the room itself is created by the booking workflow.
 */
export function dailyProvider(template: string, opts: { apiUrl: string; apiKey: string }): VideoProvider {
  const base = opts.apiUrl.replace(/\/+$/, '');
  const fetchFn = remoteFetch(VIDEO_OUTBOUND);
  const call = async (method: string, path: string, body?: unknown): Promise<Response> => {
    let res: Response;
    try {
      res = await fetchFn(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${opts.apiKey}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (err) {
      // a refused address is a setting to fix, not worth retrying; anything else may pass
      if (err instanceof RemoteFetchError && err.reason === 'blocked') throw new Error(`Daily ${method} ${path}: ${err.message}`);
      throw new VideoProviderError(`Daily ${method} ${path}: ${String(err)}`);
    }
    if (res.status >= 500 || res.status === 429) throw new VideoProviderError(`Daily ${method} ${path}: HTTP ${res.status}`);
    return res;
  };
  return {
    ...dailyRecordings(call),
    planRoom(): VideoRoom {
      const name = newRoomName();
      return { name, link: linkFromTemplate(template, name) };
    },
    async createMeeting(room: VideoRoom, details: VideoMeetingDetails): Promise<void> {
      const res = await call('POST', '/rooms', {
        name: room.name,
        privacy: 'public',
        // open from an hour before the start until six hours after the end, then Daily deletes it
        properties: {
          nbf: Math.floor((details.start.getTime() - HOUR) / 1000),
          exp: Math.floor((details.end.getTime() + 6 * HOUR) / 1000),
          // AI notes on (docs.daily.co/reference/rest-api/rooms/config): cloud recording and a stored WebVTT transcript
          ...(details.record ? { enable_recording: 'cloud', enable_transcription_storage: true, auto_start_transcription: true } : {}),
        },
      });
      if (res.ok) return;
      const text = await res.text();
      // a retried activity finds the room it made the first time
      if (res.status === 400 && /already exists/i.test(text)) return;
      throw new Error(`Daily refused to create room ${room.name}: HTTP ${res.status} ${text.slice(0, 200)}`);
    },
    async deleteMeeting(room: VideoRoom): Promise<void> {
      if (!room.name) return;
      const res = await call('DELETE', `/rooms/${encodeURIComponent(room.name)}`);
      if (res.ok || res.status === 404) return;
      throw new Error(`Daily refused to delete room ${room.name}: HTTP ${res.status}`);
    },
  };
}
