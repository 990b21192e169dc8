import { zoomRetryAfterMs } from '../../core/video/zoom-api';
import { checkZoomSignature, zoomUrlValidation } from '../../core/video/zoom-webhook';
import crypto from 'node:crypto';

// Zoom's rate-limit answers (developers.zoom.us/docs/api/rest/rate-limits/) and webhook signatures
// (developers.zoom.us/docs/api/webhooks/#verify-webhook-events), read without a server.

const NOW = Date.UTC(2026, 2, 29, 23, 30, 0); // 23:30 UTC on a DST-change Sunday in Europe

test('a 429 waits for Retry-After, else for 00:00 UTC on a daily limit, else one second', () => {
  expect(zoomRetryAfterMs(new Headers({ 'retry-after': '7' }), '', NOW)).toBe(7000);
  expect(zoomRetryAfterMs(new Headers({ 'retry-after': '2026-03-30T00:00:00Z' }), '', NOW)).toBe(30 * 60_000);
  expect(zoomRetryAfterMs(new Headers({ 'x-ratelimit-type': 'Daily-limit' }), '', NOW)).toBe(30 * 60_000);
  const body =
    '{"code":429,"message":"You have exceeded the daily rate limit (100) of Meeting Create/Update API requests permitted for this particular user. You may resume these requests at GMT 00:00:00."}';
  expect(zoomRetryAfterMs(new Headers(), body, NOW)).toBe(30 * 60_000);
  expect(zoomRetryAfterMs(new Headers({ 'x-ratelimit-type': 'QPS' }), '', NOW)).toBe(1000);
});

test('the signature: v0=HMAC(v0:ts:body), timing-safe, a stale or future timestamp refused', () => {
  const body = '{"event":"recording.completed"}';
  const ts = String(Math.floor(NOW / 1000));
  const sig = `v0=${crypto.createHmac('sha256', 'secret').update(`v0:${ts}:${body}`).digest('hex')}`;
  expect(checkZoomSignature('secret', { signature: sig, timestamp: ts, rawBody: body }, NOW)).toBe('ok');
  expect(checkZoomSignature('secret', { signature: sig, timestamp: ts, rawBody: `${body} ` }, NOW)).toBe('forged');
  expect(checkZoomSignature('other', { signature: sig, timestamp: ts, rawBody: body }, NOW)).toBe('forged');
  expect(checkZoomSignature('secret', { signature: sig.slice(0, -1), timestamp: ts, rawBody: body }, NOW)).toBe('forged');
  expect(checkZoomSignature('secret', { signature: sig, timestamp: ts, rawBody: body }, NOW + 301_000)).toBe('stale');
  expect(checkZoomSignature('secret', { signature: sig, timestamp: ts, rawBody: body }, NOW - 301_000)).toBe('stale');
  expect(checkZoomSignature('secret', { signature: '', timestamp: ts, rawBody: body }, NOW)).toBe('missing');
  expect(checkZoomSignature('secret', { signature: sig, timestamp: 'soon', rawBody: body }, NOW)).toBe('missing');
  expect(zoomUrlValidation('secret', 'abc')).toEqual({
    plainToken: 'abc',
    encryptedToken: crypto.createHmac('sha256', 'secret').update('abc').digest('hex'),
  });
});
