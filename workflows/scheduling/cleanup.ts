import { proxyActivities } from '@temporalio/workflow';
import type { SchedulingActivities } from '../../activities/scheduling';
import type { CleanupWorkflowInput } from './contract';

const acts = proxyActivities<SchedulingActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '2 seconds', maximumInterval: '5 minutes' },
});

/**
 * `meeting-cleanup-<meeting_id>`: after a cancellation or a DELETE, delete the video meeting and
 * the calendar event, and send the attendee a cancellation with an .ics CANCEL. Its id is
 * deterministic and never reused, so it runs once however often the PATCH is repeated.
 */
export async function meetingCleanupWorkflow(input: CleanupWorkflowInput): Promise<void> {
  await acts.deleteVideoMeeting(input);
  await acts.deleteCalendarEvents(input);
  await acts.sendCancellationEmail(input);
}
