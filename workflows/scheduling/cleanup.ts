import { patched, proxyActivities, setCurrentDetails } from '@temporalio/workflow';
import type { BookingActivities } from '../../activities/booking';
import type { CalendarWriteActivities } from '../../activities/calendars/write-back';
import { CALENDAR_WRITE_PATCH, calendarWriteOptions } from './booking';
import type { CleanupWorkflowInput } from './contract';

const acts = proxyActivities<BookingActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '2 seconds', maximumInterval: '5 minutes' },
});
const calendar = proxyActivities<CalendarWriteActivities>(calendarWriteOptions);

/**
 * `meeting-cleanup-<meeting_id>`: after a cancellation or a DELETE, delete the video meeting and
 * the calendar event, send the attendee a cancellation with an .ics CANCEL, then remove the event
 * from the host's booking calendar (last, with its own long retry schedule: a calendar server that
 * is down never holds the cancellation email back). Its id is
 * deterministic and never reused, so it runs once however often the PATCH is repeated.
 */
export async function meetingCleanupWorkflow(input: CleanupWorkflowInput): Promise<void> {
  setCurrentDetails('cleanup: removing the video room');
  await acts.deleteVideoMeeting(input);
  setCurrentDetails('cleanup: removing the calendar events');
  await acts.deleteCalendarEvents(input);
  setCurrentDetails('cleanup: sending the cancellation email');
  await acts.sendCancellationEmail(input);
  setCurrentDetails('cleanup: removing the meeting from the host calendar');
  if (patched(CALENDAR_WRITE_PATCH)) await calendar.removeMeetingFromCalendar(input);
}
