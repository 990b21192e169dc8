import { z } from 'zod';
import { remoteFetch, type OutboundPolicy } from '../outbound-http';
import type { RecordingLookup, TranscriptLookup, VideoRoom } from './room';

/** One Daily API call: answers the response (a 5xx, 429 or network failure throws a retryable error). */
export type DailyCall = (method: string, path: string, body?: unknown) => Promise<Response>;

/** A transcript file (WebVTT) is larger than an API answer: 5 MB and 60 s bound its download. */
export const TRANSCRIPT_DOWNLOAD: OutboundPolicy = {
  urlPolicy: { loopback: true, private: true },
  timeoutMs: 60_000,
  maxBytes: 5 * 1024 * 1024,
  maxRedirects: 3,
};

// docs.daily.co/reference/rest-api/recordings/list-recordings: {total_count, data: [recording]};
// a recording (…/recordings/get-recording): {id, room_name, start_ts, status: finished | in-progress | canceled, duration?}
const recordingList = z.object({
  data: z.array(
    z.object({
      id: z.string(),
      room_name: z.string().optional(),
      start_ts: z.number().optional(),
      status: z.string(),
      duration: z.number().optional(),
    }),
  ),
});
// …/recordings/get-recording-link: {download_link, expires}
const recordingLink = z.object({ download_link: z.string(), expires: z.number().optional() });
// …/rooms/get-room-config: {id, name, …}
const room = z.object({ id: z.string(), name: z.string() });
// …/transcripts/list-transcripts: {total_count, data: [{transcriptId, roomId, status: t_finished | t_in_progress | t_error | t_deleted, isVttAvailable?}]}
const transcriptList = z.object({
  data: z.array(
    z.object({ transcriptId: z.string(), roomId: z.string().optional(), status: z.string(), isVttAvailable: z.boolean().optional() }),
  ),
});
// …/transcripts/get-transcript-link: {transcriptId, link}
const transcriptLink = z.object({ link: z.string() });

async function json<T>(res: Response, schema: z.ZodType<T>, what: string): Promise<T> {
  if (!res.ok) throw new Error(`Daily ${what}: HTTP ${res.status} ${(await res.text()).slice(0, 200)}`);
  const parsed = schema.safeParse(await res.json());
  if (!parsed.success) throw new Error(`Daily ${what}: unexpected answer (${parsed.error.issues[0]?.message})`);
  return parsed.data;
}

/** The recordings and transcripts half of the Daily adapter (core/video/daily.ts builds it). */
export function dailyRecordings(call: DailyCall) {
  const mintLink = async (recordingId: string): Promise<{ url: string; expiresAt: number | null }> => {
    const got = await json(
      await call('GET', `/recordings/${encodeURIComponent(recordingId)}/access-link`),
      recordingLink,
      'recording link',
    );
    return { url: got.download_link, expiresAt: got.expires === undefined ? null : got.expires * 1000 };
  };
  return {
    recordingLink: mintLink,
    async findRecording(r: VideoRoom): Promise<RecordingLookup> {
      const list = await json(await call('GET', `/recordings?room_name=${encodeURIComponent(r.name)}`), recordingList, 'recordings');
      const mine = list.data.filter((x) => x.room_name === undefined || x.room_name === r.name);
      if (mine.some((x) => x.status === 'in-progress')) return { state: 'processing' };
      const done = mine.filter((x) => x.status === 'finished').sort((a, b) => (b.start_ts ?? 0) - (a.start_ts ?? 0));
      if (!done.length) return { state: 'none' };
      const best = done[0];
      return { state: 'ready', id: best.id, durationSeconds: Math.round(best.duration ?? 0), url: (await mintLink(best.id)).url };
    },
    async findTranscript(r: VideoRoom): Promise<TranscriptLookup> {
      const res = await call('GET', `/rooms/${encodeURIComponent(r.name)}`);
      if (res.status === 404) return { state: 'none' };
      const { id } = await json(res, room, 'room');
      const list = await json(await call('GET', `/transcript?roomId=${encodeURIComponent(id)}`), transcriptList, 'transcripts');
      if (list.data.some((t) => t.status === 't_in_progress')) return { state: 'processing' };
      const done = list.data.find((t) => t.status === 't_finished' && t.isVttAvailable !== false);
      if (!done) return { state: 'none' };
      const { link } = await json(
        await call('GET', `/transcript/${encodeURIComponent(done.transcriptId)}/access-link`),
        transcriptLink,
        'transcript link',
      );
      const file = await remoteFetch(TRANSCRIPT_DOWNLOAD)(link, { method: 'GET' });
      if (!file.ok) throw new Error(`Daily transcript download: HTTP ${file.status}`);
      return { state: 'ready', vtt: await file.text() };
    },
  };
}
