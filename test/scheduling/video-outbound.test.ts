import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { dailyProvider, VideoProviderError } from '../../core/video/daily';

// Daily's API goes through the one outbound client (core/outbound-http/) with VIDEO_OUTBOUND:
// the operator's loopback stand-in is reachable, a metadata address never is, and an answer is bounded.

let server: http.Server;
let base: string;
const seen: Array<{ method?: string; url?: string; authorization?: string }> = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push({ method: req.method, url: req.url, authorization: req.headers.authorization });
    if (req.url?.startsWith('/v1/rooms/huge')) {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('x'.repeat(2 * 1024 * 1024));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"deleted":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

test('a loopback API URL set by the operator is reached, with the key', async () => {
  const daily = dailyProvider('https://team.daily.co/{room}', { apiUrl: base, apiKey: 'k-123' });
  await daily.deleteMeeting({ name: 'room-a', link: 'https://team.daily.co/room-a' });
  expect(seen.at(-1)).toEqual({ method: 'DELETE', url: '/v1/rooms/room-a', authorization: 'Bearer k-123' });
});

test('a metadata address is refused before any connection, and not as a retryable error', async () => {
  const daily = dailyProvider('https://team.daily.co/{room}', { apiUrl: 'http://169.254.169.254/v1', apiKey: 'k' });
  const err = await daily.deleteMeeting({ name: 'room-b', link: 'https://team.daily.co/room-b' }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(Error);
  expect(err).not.toBeInstanceOf(VideoProviderError);
  expect(String(err)).toMatch(/refused/);
});

test('an answer larger than the policy allows is cut off (retryable)', async () => {
  const daily = dailyProvider('https://team.daily.co/{room}', { apiUrl: base, apiKey: 'k' });
  const err = await daily.deleteMeeting({ name: 'huge', link: 'https://team.daily.co/huge' }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(VideoProviderError);
  expect(String(err)).toMatch(/larger than 1 MB/);
});
