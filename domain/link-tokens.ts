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
const hexOf = (id: string) => id.replace(/-/g, '').toLowerCase();
const uuidOf = (hex: string) => `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
const macMatches = (key: Buffer, body: string, given: string) => {
  const expected = Buffer.from(mac(key, body));
  const got = Buffer.from(given);
  return expected.length === got.length && crypto.timingSafeEqual(expected, got);
};

export function signLinkToken(key: Buffer, meetingId: string, purpose: LinkPurpose, expiresAt: Date): string {
  const body = `${hexOf(meetingId)}.${LINK_PURPOSES[purpose]}${Math.ceil(expiresAt.getTime() / 1000).toString(36)}`;
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
  if (!macMatches(key, `${m[1]}.${m[2]}${m[3]}`, m[4])) return null;
  const expiresAt = new Date(parseInt(m[3], 36) * 1000);
  if (!(expiresAt.getTime() > now)) return null;
  return { meetingId: uuidOf(m[1]), purpose: BY_LETTER[m[2]], expiresAt };
}

/*
 * Calendar links (services/scheduling/feed.ts): a host's feed and one meeting's event, as `.ics` URLs
 * that open without a login. Nothing is stored but the feed's generation: rotating the feed bumps it.
 *   host feed:  `calh_<user id, 32 hex>.<generation, base36>.<MAC>`
 *   one event:  `calm_<meeting id, 32 hex>.<MAC>`
 * The MAC input names the kind, so one kind of token is never valid as the other.
 */
const FEED_SHAPE = /^calh_([0-9a-f]{32})\.([0-9a-z]{1,8})\.([A-Za-z0-9_-]{22})$/;
const EVENT_SHAPE = /^calm_([0-9a-f]{32})\.([A-Za-z0-9_-]{22})$/;

export function signFeedToken(key: Buffer, userId: string, generation: number): string {
  const body = `${hexOf(userId)}.${generation.toString(36)}`;
  return `calh_${body}.${mac(key, `feed:${body}`)}`;
}

/** The user and generation of a correctly signed host feed token; null otherwise (the caller checks the generation). */
export function verifyFeedToken(key: Buffer, token: string): { userId: string; generation: number } | null {
  const m = FEED_SHAPE.exec(token);
  if (!m || !macMatches(key, `feed:${m[1]}.${m[2]}`, m[3])) return null;
  return { userId: uuidOf(m[1]), generation: parseInt(m[2], 36) };
}

export function signEventToken(key: Buffer, meetingId: string): string {
  const body = hexOf(meetingId);
  return `calm_${body}.${mac(key, `event:${body}`)}`;
}

export function verifyEventToken(key: Buffer, token: string): { meetingId: string } | null {
  const m = EVENT_SHAPE.exec(token);
  if (!m || !macMatches(key, `event:${m[1]}`, m[2])) return null;
  return { meetingId: uuidOf(m[1]) };
}

/*
 * Routing prefill (services/forms/routing.ts): the booking step of a routed submission, opened from
 * the form's answer or the no-JavaScript page's link, books with the submission's answers and its
 * routed hosts. Short-lived; nothing is stored.
 *   `pf_<submission id, 32 hex>.<expiry, base36 seconds>.<MAC>`, the MAC input prefixed `prefill:`.
 */
const PREFILL_SHAPE = /^pf_([0-9a-f]{32})\.([0-9a-z]{1,10})\.([A-Za-z0-9_-]{22})$/;

export function signPrefillToken(key: Buffer, submissionId: string, expiresAt: Date): string {
  const body = `${hexOf(submissionId)}.${Math.ceil(expiresAt.getTime() / 1000).toString(36)}`;
  return `pf_${body}.${mac(key, `prefill:${body}`)}`;
}

/** The submission of a well-formed, correctly signed, unexpired prefill token; null otherwise. */
export function verifyPrefillToken(key: Buffer, token: string, now: number): { submissionId: string; expiresAt: Date } | null {
  const m = PREFILL_SHAPE.exec(token);
  if (!m || !macMatches(key, `prefill:${m[1]}.${m[2]}`, m[3])) return null;
  const expiresAt = new Date(parseInt(m[2], 36) * 1000);
  if (!(expiresAt.getTime() > now)) return null;
  return { submissionId: uuidOf(m[1]), expiresAt };
}
