import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface DailyCall {
  method: string;
  path: string;
  body: Record<string, any> | null;
  authorization: string;
}

/**
 * A local stand-in for Daily's REST API (POST /rooms, DELETE /rooms/:name), answering as the
 * documentation shows. `failNext` makes the next N calls answer 503 (to exercise retries).
 */
export async function startDailyStandin(apiKey: string) {
  const calls: DailyCall[] = [];
  const rooms = new Map<string, Record<string, unknown>>();
  const state = { failNext: 0 };
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
      if (call.authorization !== `Bearer ${apiKey}`) return json(401, { error: 'authentication-error', info: 'bad API key' });
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
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}/v1`, calls, rooms, state, close: () => new Promise<void>((r) => server.close(() => r())) };
}
