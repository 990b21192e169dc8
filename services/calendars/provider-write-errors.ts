import {
  CalendarGrantError,
  CalendarPermanentError,
  CalendarRateLimitedError,
  CalendarSyncStateGoneError,
  CalendarUnauthorizedError,
  CalendarUnavailableError,
} from '../../core/calendars/provider-http';
import { CalendarWriteError } from './caldav-write';

/**
 * A provider's failure on a booking write (google-write.ts, microsoft-write.ts) as the write-back sees
 * it (docs/calendars.md "Writing bookings"): Retry-After is passed on; a refused grant or a 401 that
 * survived a refresh needs the account connected again; any other 4xx is permanent (not retried),
 * with a sentence the host can act on for 403 and 404; 5xx and network failures are retried.
 */
export function providerWriteFailure(provider: 'Google' | 'Microsoft', err: unknown, what: string): unknown {
  if (err instanceof CalendarRateLimitedError) return new CalendarWriteError(err.message, 429, { retryAfterMs: err.retryAfterMs });
  if (err instanceof CalendarGrantError || err instanceof CalendarUnauthorizedError)
    return new CalendarWriteError(`${provider} no longer accepts the connection (${what})`, 401, { needsReauth: true, permanent: true });
  if (err instanceof CalendarPermanentError)
    return new CalendarWriteError(explain(provider, err.status, err.message), err.status || null, { permanent: true });
  if (err instanceof CalendarSyncStateGoneError) return new CalendarWriteError(err.message, 410, { permanent: true });
  if (err instanceof CalendarUnavailableError) return new CalendarWriteError(err.message, null);
  return err;
}

function explain(provider: string, status: number, message: string): string {
  if (status === 403) return `${provider} does not allow writing to this calendar (HTTP 403); choose another booking calendar`;
  if (status === 404) return `the calendar no longer exists at ${provider} (HTTP 404); choose another booking calendar`;
  return message;
}

/** The event is gone at the provider (404, or 410): the host deleted it. */
export const isEventGone = (err: unknown) =>
  err instanceof CalendarSyncStateGoneError || (err instanceof CalendarPermanentError && err.status === 404);
