import crypto from 'node:crypto';

/**
 * Webhook signatures (DESIGN.md "Fixed details"):
 * - `X-Webhook-Signature: sha256=<hex HMAC-SHA256(raw body)>`, keyed with the whole secret string
 *   (`whsec_…`, UTF-8) exactly as shown to the user.
 * - Standard Webhooks `webhook-signature: v1,<base64 HMAC-SHA256("<id>.<ts>.<body>")>`, keyed with
 *   the bytes that the base64 after `whsec_` decodes to.
 * Pure: no I/O.
 */
export const SECRET_PREFIX = 'whsec_';

export function generateWebhookSecret(): string {
  return SECRET_PREFIX + crypto.randomBytes(32).toString('base64');
}

export function isWebhookSecret(s: string): boolean {
  return s.startsWith(SECRET_PREFIX) && Buffer.from(s.slice(SECRET_PREFIX.length), 'base64').length >= 24;
}

/** `sha256=<lowercase hex>` of the raw body, keyed with the whole secret string. */
export function signBody(secret: string, body: string | Buffer): string {
  return `sha256=${crypto.createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('hex')}`;
}

/** Constant-time check of an `X-Webhook-Signature` value (what a receiver does). */
export function verifyBodySignature(secret: string, body: string | Buffer, header: string | null | undefined): boolean {
  if (!header) return false;
  const expected = Buffer.from(signBody(secret, body));
  const given = Buffer.from(header.trim());
  return expected.length === given.length && crypto.timingSafeEqual(expected, given);
}

/** One Standard Webhooks signature: `v1,<base64>`. */
export function standardSignature(secret: string, msgId: string, timestampSec: number, body: string): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  const mac = crypto.createHmac('sha256', key).update(`${msgId}.${timestampSec}.${body}`).digest('base64');
  return `v1,${mac}`;
}

export interface SignatureInput {
  msgId: string;
  eventType: string;
  timestampSec: number;
  body: string;
  secret: string;
  /** The pre-rotation secret, during its 24 h overlap. */
  previousSecret?: string | null;
}

/** Every header a delivery carries, apart from content-type and user-agent. */
export function signatureHeaders(i: SignatureInput): Record<string, string> {
  const ts = String(i.timestampSec);
  const std = [standardSignature(i.secret, i.msgId, i.timestampSec, i.body)];
  const headers: Record<string, string> = {
    'x-webhook-id': i.msgId,
    'x-webhook-event': i.eventType,
    'x-webhook-timestamp': ts,
    'x-webhook-signature': signBody(i.secret, i.body),
    'webhook-id': i.msgId,
    'webhook-timestamp': ts,
  };
  if (i.previousSecret) {
    headers['x-webhook-signature-previous'] = signBody(i.previousSecret, i.body);
    std.push(standardSignature(i.previousSecret, i.msgId, i.timestampSec, i.body));
  }
  headers['webhook-signature'] = std.join(' ');
  return headers;
}
