import { createPublicKey, verify } from 'node:crypto';

export const SENDGRID_SIGNATURE_HEADER = 'x-twilio-email-event-webhook-signature';
export const SENDGRID_TIMESTAMP_HEADER = 'x-twilio-email-event-webhook-timestamp';

/**
 * SendGrid's signed Event Webhook: an ECDSA (P-256, SHA-256) signature, base64 DER, over the
 * timestamp header followed by the exact request body, checked with the account's verification
 * key (base64 DER SubjectPublicKeyInfo, as SendGrid shows it, or PEM).
 */
export function verifySendgridSignature(publicKey: string, signature: string, timestamp: string, rawBody: string | Buffer): boolean {
  if (!signature || !timestamp) return false;
  try {
    const key = publicKey.includes('BEGIN PUBLIC KEY')
      ? createPublicKey(publicKey)
      : createPublicKey({ key: Buffer.from(publicKey, 'base64'), format: 'der', type: 'spki' });
    const payload = Buffer.concat([Buffer.from(timestamp, 'utf8'), Buffer.isBuffer(rawBody) ? rawBody : Buffer.from(rawBody, 'utf8')]);
    return verify('sha256', payload, key, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}
