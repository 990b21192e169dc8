import { removeMeetingFromCalendar, writeMeetingToCalendar, type WriteOutcome } from '../../services/calendars/write-back';
import type { CleanupWorkflowInput } from '../../workflows/scheduling/contract';
import type { ActivityDeps } from '../deps';

/**
 * Write-back of bookings to the host's CalDAV booking calendar (services/calendars/write-back.ts).
 * The booking and cleanup workflows proxy them as `CalendarWriteActivities`, with their own retry
 * options (a long schedule with backoff: a calendar that is down delays the event, never the
 * booking), see workflows/scheduling/booking.ts.
 */
export function calendarWriteActivities(deps: ActivityDeps) {
  return {
    /** PUT the meeting as it is now on its host's booking calendar; safe to run again after any change. */
    async writeMeetingToCalendar(meetingId: string): Promise<WriteOutcome> {
      return writeMeetingToCalendar(deps, { meetingId });
    },
    /** DELETE what the meeting wrote (the cleanup after a cancel or a DELETE). */
    async removeMeetingFromCalendar(input: CleanupWorkflowInput): Promise<number> {
      return removeMeetingFromCalendar(deps, input);
    },
  };
}

export type CalendarWriteActivities = ReturnType<typeof calendarWriteActivities>;
