import crypto from 'node:crypto';

/**
 * Signed, single-purpose link tokens (attendee cancel/reschedule, host confirm/decline): the
 * meeting id, the purpose and an expiry, MACed with a server key. Nothing is stored; a token is
 * valid until its expiry for its one purpose and meeting only. Pure: the key is passed in.
 *
 * Shape: `<meeting id, 32 hex>.<purpose letter><expiry, base36 seconds>.<HMAC-SHA256, 128 bits, base64url>`.
 */
export const LINK_PURPOSES = { cancel: 'c', reschedule: 'r', confirm: 'a', decline: 'd' } as const;
export type LinkPurpose = keyof typeof LINK_PURPOSES;

const BY_LETTER = Object.fromEntries(Object.entries(LINK_PURPOSES).map(([p, l]) => [l, p])) as Record<string, LinkPurpose>;
const SHAPE = /^([0-9a-f]{32})\.([card])([0-9a-z]{1,10})\.([A-Za-z0-9_-]{22})$/;

const mac = (key: Buffer, body: string) => crypto.createHmac('sha256', key).update(body).digest().subarray(0, 16).toString('base64url');

export function signLinkToken(key: Buffer, meetingId: string, purpose: LinkPurpose, expiresAt: Date): string {
  const body = `${meetingId.replace(/-/g, '').toLowerCase()}.${LINK_PURPOSES[purpose]}${Math.ceil(expiresAt.getTime() / 1000).toString(36)}`;
  return `${body}.${mac(key, body)}`;
}

export interface LinkTokenClaims {
  meetingId: string;
  purpose: LinkPurpose;
  expiresAt: Date;
}

/** The claims of a well-formed, correctly signed, unexpired token; null otherwise. */
export function verifyLinkToken(key: Buffer, token: string, now: number): LinkTokenClaims | null {
  const m = SHAPE.exec(token);
  if (!m) return null;
  const body = `${m[1]}.${m[2]}${m[3]}`;
  const expected = Buffer.from(mac(key, body));
  const given = Buffer.from(m[4]);
  if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) return null;
  const expiresAt = new Date(parseInt(m[3], 36) * 1000);
  if (!(expiresAt.getTime() > now)) return null;
  const hex = m[1];
  const meetingId = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return { meetingId, purpose: BY_LETTER[m[2]], expiresAt };
}
