import crypto from 'node:crypto';

/**
 * Zoom's webhook verification (developers.zoom.us/docs/api/webhooks/#verify-webhook-events):
 * `x-zm-signature` is `v0=` and the hex HMAC-SHA256, under the app's secret token, of
 * `v0:{x-zm-request-timestamp}:{raw body}`; `endpoint.url_validation` is answered with the
 * `plainToken` and its hex HMAC-SHA256 under the same secret (`encryptedToken`).
 */

/** A timestamp further than this from now is refused (a replayed request). */
export const ZOOM_TIMESTAMP_TOLERANCE_S = 300;

export type ZoomSignatureCheck = 'ok' | 'missing' | 'forged' | 'stale';

const hmac = (secret: string, text: string) => crypto.createHmac('sha256', secret).update(text).digest('hex');

export function checkZoomSignature(
  secret: string,
  input: { signature: string; timestamp: string; rawBody: string },
  nowMs = Date.now(),
): ZoomSignatureCheck {
  if (!input.signature || !/^\d{1,12}$/.test(input.timestamp)) return 'missing';
  const expected = Buffer.from(`v0=${hmac(secret, `v0:${input.timestamp}:${input.rawBody}`)}`);
  const given = Buffer.from(input.signature);
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return 'forged';
  // Zoom sends seconds; milliseconds are read too
  const ts = Number(input.timestamp);
  const sentMs = ts > 1e11 ? ts : ts * 1000;
  return Math.abs(nowMs - sentMs) > ZOOM_TIMESTAMP_TOLERANCE_S * 1000 ? 'stale' : 'ok';
}

export function zoomUrlValidation(secret: string, plainToken: string): { plainToken: string; encryptedToken: string } {
  return { plainToken, encryptedToken: hmac(secret, plainToken) };
}
