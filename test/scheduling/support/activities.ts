import { bookingActivities } from '../../../activities/booking';
import { calendarWriteActivities } from '../../../activities/calendars/write-back';
import { followupActivities } from '../../../activities/meeting-followup';

type Deps = Parameters<typeof bookingActivities>[0];

/**
 * The activities a booking's workflows call, as the worker registers them: the booking's own, the
 * calendar write-back and the follow-up (each workflow proxies its own module; the worker merges them).
 */
export function meetingActivities(deps: Deps) {
  return { ...bookingActivities(deps), ...calendarWriteActivities(deps), ...followupActivities(deps) };
}
