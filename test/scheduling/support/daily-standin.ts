import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface DailyCall {
  method: string;
  path: string;
  body: Record<string, any> | null;
  authorization: string;
}

/**
 * A local stand-in for Daily's REST API, answering as the documentation shows
 * (docs.daily.co/reference/rest-api): rooms (POST /rooms, GET and DELETE /rooms/:name),
 * recordings (GET /recordings?room_name=, GET /recordings/:id/access-link) and transcripts
 * (GET /transcript?roomId=, GET /transcript/:id/access-link, and the WebVTT file the link points
 * at). `failNext` makes the next N calls answer 503 (to exercise retries). A room's recording is
 * `in-progress` for the first `state.processingPolls` lists, then `finished`; each access link
 * minted is new (a counter in its token), as Daily's expiring links are.
 */
export async function startDailyStandin(apiKey: string) {
  const calls: DailyCall[] = [];
  const rooms = new Map<string, Record<string, unknown>>();
  const state = { failNext: 0, processingPolls: 0, durationSeconds: 1740, links: 0 };
  /** WebVTT by room name; a room without one has no transcript. */
  const vtt = new Map<string, string>();
  const polls = new Map<string, number>();
  let base = '';
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const call: DailyCall = {
        method: req.method ?? '',
        path: req.url ?? '',
        body: raw ? JSON.parse(raw) : null,
        authorization: req.headers.authorization ?? '',
      };
      calls.push(call);
      const json = (status: number, body: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (state.failNext > 0) {
        state.failNext--;
        return json(503, { error: 'unavailable' });
      }
      const file = /^\/files\/(.+)\.vtt$/.exec(call.path);
      if (call.method === 'GET' && file) {
        return res.writeHead(200, { 'content-type': 'text/vtt' }).end(vtt.get(decodeURIComponent(file[1])) ?? '');
      }
      if (call.authorization !== `Bearer ${apiKey}`) return json(401, { error: 'authentication-error', info: 'bad API key' });
      const answer = recordingsAndTranscripts(call);
      if (answer) return json(answer.status, answer.body);
      const del = /^\/v1\/rooms\/([^/]+)$/.exec(call.path);
      if (call.method === 'POST' && call.path === '/v1/rooms') {
        const name = String(call.body?.name ?? '');
        if (rooms.has(name)) return json(400, { error: 'invalid-request-error', info: `a room named ${name} already exists` });
        const room = {
          id: `r-${rooms.size + 1}`,
          name,
          privacy: call.body?.privacy,
          url: `https://example-team.daily.co/${name}`,
          config: call.body?.properties,
        };
        rooms.set(name, room);
        return json(200, room);
      }
      if (call.method === 'DELETE' && del) {
        const name = decodeURIComponent(del[1]);
        if (!rooms.delete(name)) return json(404, { error: 'not-found', info: `room ${name} was not found` });
        return json(200, { deleted: true, name });
      }
      return json(404, { error: 'not-found' });
    });
  });
  /** The recordings and transcripts endpoints (null: not one of them). */
  function recordingsAndTranscripts(call: DailyCall): { status: number; body: unknown } | null {
    const url = new URL(call.path, 'http://standin');
    const roomGet = /^\/v1\/rooms\/([^/]+)$/.exec(url.pathname);
    if (call.method === 'GET' && roomGet) {
      const room = rooms.get(decodeURIComponent(roomGet[1]));
      return room ? { status: 200, body: room } : { status: 404, body: { error: 'not-found', info: 'room was not found' } };
    }
    if (call.method === 'GET' && url.pathname === '/v1/recordings') {
      const name = url.searchParams.get('room_name') ?? '';
      const room = rooms.get(name);
      if (!room) return { status: 200, body: { total_count: 0, data: [] } };
      const n = (polls.get(name) ?? 0) + 1;
      polls.set(name, n);
      const done = n > state.processingPolls;
      const rec = {
        id: `rec-${room.id as string}`,
        room_name: name,
        start_ts: 1_700_000_000,
        status: done ? 'finished' : 'in-progress',
        max_participants: 2,
        ...(done ? { duration: state.durationSeconds } : {}),
        share_token: 'deprecated',
        s3key: `example-team/${name}/1700000000`,
        mtgSessionId: `s-${room.id as string}`,
      };
      return { status: 200, body: { total_count: 1, data: [rec] } };
    }
    const recLink = /^\/v1\/recordings\/([^/]+)\/access-link$/.exec(url.pathname);
    if (call.method === 'GET' && recLink) {
      const token = ++state.links;
      return {
        status: 200,
        body: { download_link: `https://download.example.com/${recLink[1]}.mp4?token=${token}`, expires: 1_900_000_000 + token },
      };
    }
    if (call.method === 'GET' && url.pathname === '/v1/transcript') {
      const roomId = url.searchParams.get('roomId');
      const room = [...rooms.values()].find((r) => r.id === roomId);
      const data =
        room && vtt.has(room.name as string)
          ? [
              {
                transcriptId: `t-${roomId}`,
                domainId: 'd-1',
                roomId,
                mtgSessionId: `s-${roomId}`,
                status: 't_finished',
                duration: 1700,
                isVttAvailable: true,
              },
            ]
          : [];
      return { status: 200, body: { total_count: data.length, data } };
    }
    const tLink = /^\/v1\/transcript\/t-([^/]+)\/access-link$/.exec(url.pathname);
    if (call.method === 'GET' && tLink) {
      const room = [...rooms.values()].find((r) => r.id === tLink[1]);
      if (!room) return { status: 404, body: { error: 'not-found' } };
      return { status: 200, body: { transcriptId: `t-${tLink[1]}`, link: `${base}/files/${room.name as string}.vtt` } };
    }
    return null;
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
  return { url: `${base}/v1`, calls, rooms, state, vtt, close: () => new Promise<void>((r) => server.close(() => r())) };
}
