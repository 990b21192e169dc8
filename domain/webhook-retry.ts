/**
 * The delivery schedule (DESIGN.md §3 "Webhooks"). Pure and deterministic given `rand`, so the
 * delivery workflow can call it with the workflow's seeded Math.random.
 */
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Delay before retry n (index 0 = the wait after the first failed attempt). */
export const RETRY_DELAYS_MS: readonly number[] = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR];
/** The first attempt plus one per scheduled retry. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** ±10 % jitter, so that retries of a burst do not all arrive at the same instant. */
export const JITTER = 0.1;
/** A Retry-After longer than this is capped (a receiver cannot park a delivery for weeks). */
export const MAX_RETRY_AFTER_MS = 24 * HOUR;
/** Consecutive failure time after which a subscription is disabled. */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * HOUR;

/**
 * Wait before the retry that follows failed attempt `attemptIndex` (0-based), or null when the
 * schedule is exhausted. `rand` is in [0, 1). A Retry-After is honoured: the retry never comes
 * earlier than the receiver asked, capped at MAX_RETRY_AFTER_MS.
 */
export function retryDelayMs(attemptIndex: number, rand: number, retryAfterMs?: number | null): number | null {
  const base = RETRY_DELAYS_MS[attemptIndex];
  if (base === undefined) return null;
  const jittered = Math.round(base * (1 - JITTER + 2 * JITTER * rand));
  if (retryAfterMs != null && retryAfterMs > 0) return Math.max(jittered, Math.min(retryAfterMs, MAX_RETRY_AFTER_MS));
  return jittered;
}

/**
 * Parse a Retry-After header (delta-seconds or an HTTP-date) into milliseconds from `nowMs`.
 * Null when absent or unparseable; 0 for a date in the past.
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | null {
  if (value == null) return null;
  const v = value.trim();
  if (v === '') return null;
  if (/^\d+$/.test(v)) {
    const secs = Number(v);
    return Number.isSafeInteger(secs) ? secs * SECOND : null;
  }
  // HTTP-date (RFC 9110 IMF-fixdate; Date.parse also reads the obsolete forms).
  if (!/[a-z]/i.test(v)) return null;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - nowMs);
}

/** Wait before re-trying to get a concurrency slot: grows from ~100 ms to ~3 s, with jitter. */
export function throttleDelayMs(tries: number, rand: number): number {
  const base = Math.min(100 * 2 ** Math.min(tries, 5), 3 * SECOND);
  return Math.round(base * (0.5 + rand));
}

/** Whether a run of failures that began at `failingSinceMs` now disables the subscription. */
export function shouldDisableForFailures(failingSinceMs: number | null, nowMs: number): boolean {
  return failingSinceMs != null && nowMs - failingSinceMs >= DISABLE_AFTER_FAILING_MS;
}

export type AttemptClass = 'success' | 'gone' | 'failure';

/** 2xx is a success; 410 disables the endpoint; anything else (3xx included: redirects are not followed) fails. */
export function classifyStatus(status: number | null): AttemptClass {
  if (status == null) return 'failure';
  if (status >= 200 && status < 300) return 'success';
  if (status === 410) return 'gone';
  return 'failure';
}
