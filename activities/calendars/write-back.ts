import { ApplicationFailure } from '@temporalio/activity';
import { CalendarWriteError } from '../../services/calendars/caldav-write';
import { removeMeetingFromCalendar, writeMeetingToCalendar, type WriteOutcome } from '../../services/calendars/write-back';
import { CalendarWriteBusy } from '../../services/calendars/write-leases';
import type { CleanupWorkflowInput } from '../../workflows/scheduling/contract';
import type { ActivityDeps } from '../deps';

/**
 * A calendar write's failure as Temporal sees it (docs/scheduling.md "Host calendars: write-back"):
 * the provider's Retry-After becomes nextRetryDelay; a permanent refusal (a 4xx other than a rate
 * limit, a connection that needs connecting again) is not retried; anything else follows the retry
 * policy's backoff. No write slot free on the account (services/calendars/write-leases.ts): tried
 * again after 1–3 s (jittered, so that the waiting writes do not come back together).
 */
export async function withCalendarWriteFailures<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof CalendarWriteBusy)
      throw ApplicationFailure.create({
        message: err.message,
        type: 'CalendarWriteBusy',
        nextRetryDelay: 1000 + Math.floor(Math.random() * 2000),
      });
    if (!(err instanceof CalendarWriteError)) throw err;
    if (err.kind.retryAfterMs !== undefined)
      throw ApplicationFailure.create({ message: err.message, type: 'CalendarRateLimited', nextRetryDelay: err.kind.retryAfterMs });
    if (err.kind.permanent)
      throw ApplicationFailure.create({
        message: err.message,
        type: err.kind.needsReauth ? 'CalendarNeedsReauth' : 'CalendarWriteRefused',
        nonRetryable: true,
      });
    throw err;
  }
}

/**
 * Write-back of bookings to the host's destination calendar (services/calendars/write-back.ts:
 * CalDAV or Google). The booking and cleanup workflows proxy them as `CalendarWriteActivities`, with
 * their own retry options (a long schedule with backoff: a calendar that is down delays the event,
 * never the booking), see workflows/scheduling/booking.ts.
 */
export function calendarWriteActivities(deps: ActivityDeps) {
  return {
    /** Write the meeting as it is now on its destination calendar; safe to run again after any change. */
    async writeMeetingToCalendar(meetingId: string): Promise<WriteOutcome> {
      return withCalendarWriteFailures(() => writeMeetingToCalendar(deps, { meetingId }));
    },
    /** Delete what the meeting wrote (the cleanup after a cancel or a DELETE). */
    async removeMeetingFromCalendar(input: CleanupWorkflowInput): Promise<number> {
      return withCalendarWriteFailures(() => removeMeetingFromCalendar(deps, input));
    },
  };
}

export type CalendarWriteActivities = ReturnType<typeof calendarWriteActivities>;
