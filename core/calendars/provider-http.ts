import type { OutboundPolicy } from '../outbound-http';

/**
 * What the calendar providers' HTTP edges (google-api.ts, microsoft-api.ts) have in common: the
 * failures the sync treats differently, whatever the provider (docs/calendars.md "Google Calendar",
 * "Microsoft 365"), the backoff without Retry-After, and the outbound policy (operator-set URLs).
 * - CalendarRateLimitedError: throttled; the activity retries after `retryAfterMs` (Temporal's nextRetryDelay);
 * - CalendarGrantError: the token endpoint's `invalid_grant` (revoked, expired): needs_reauth;
 * - CalendarUnauthorizedError: a 401 from the API (the caller refreshes once, then gives up);
 * - CalendarSyncStateGoneError: 410: the sync token or deltaLink is gone; wipe and sync in full;
 * - CalendarPermanentError: any other 4xx (not retried);
 * - CalendarUnavailableError: 5xx and network failures.
 */
export class CalendarRateLimitedError extends Error {
  constructor(
    readonly retryAfterMs: number,
    message: string,
  ) {
    super(message);
  }
}
export class CalendarGrantError extends Error {}
export class CalendarUnauthorizedError extends Error {}
export class CalendarSyncStateGoneError extends Error {}
export class CalendarPermanentError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}
export class CalendarUnavailableError extends Error {}

export const CALENDAR_OUTBOUND: OutboundPolicy = {
  // Operator-set URLs (stand-ins under `npm run dev` and in tests listen on loopback).
  urlPolicy: { loopback: true, private: true },
  timeoutMs: 20_000,
  maxBytes: 8 * 1024 * 1024,
  maxRedirects: 0,
};

export const trimUrl = (u: string) => u.replace(/\/+$/, '');

/** Backoff without Retry-After: 1 s, 2 s, 4 s … (at most 60 s), with up to 50% jitter. */
export function backoffMs(attempt: number, random = Math.random): number {
  const base = Math.min(60_000, 1000 * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (1 + random() * 0.5));
}

/** The OAuth client of a provider (id and secret from the environment). */
export interface OAuthClient {
  id: string;
  secret: string;
}

/**
 * The account's address from an ID token received directly from the token endpoint over TLS (so its
 * claims are read, not verified): the first of `claims` that holds an address (Google: `email`;
 * Microsoft: `email`, else `preferred_username`).
 */
export function idTokenEmail(idToken: string | undefined, claims: string[] = ['email']): string | null {
  if (!idToken) return null;
  try {
    const body = JSON.parse(Buffer.from(idToken.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
    for (const c of claims) {
      const v = body[c];
      if (typeof v === 'string' && v.includes('@')) return v.toLowerCase();
    }
    return null;
  } catch {
    return null;
  }
}
