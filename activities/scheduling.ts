import type { CleanupWorkflowInput } from '../workflows/scheduling/contract';
import type { BookingStart, MeetingState } from '../workflows/scheduling/contract';
import type { MeetingEmailKind } from '../services/scheduling/meeting-emails';
import * as steps from '../services/scheduling/meeting-steps';
import type { ActivityDeps } from './deps';
import { calendarWriteActivities } from './calendars/write-back';
import { followupActivities } from './meeting-followup';
import { withZoomFailures } from './zoom-failures';

export type { MeetingEmailKind } from '../services/scheduling/meeting-emails';

/** Activities of the scheduling feature: adapters of the booking workflow's steps (services/scheduling/meeting-steps.ts). */
export function schedulingActivities(deps: ActivityDeps) {
  return {
    ...calendarWriteActivities(deps),
    ...followupActivities(deps),
    async loadMeetingState(meetingId: string): Promise<MeetingState | null> {
      return steps.loadMeetingState(deps, { meetingId });
    },
    async beginBooking(meetingId: string, firstKind: 'confirmation' | 'update'): Promise<BookingStart> {
      return withZoomFailures(() => steps.beginBooking(deps, { meetingId, firstKind }));
    },
    async sendMeetingEmail(meetingId: string, kind: MeetingEmailKind): Promise<boolean> {
      return steps.sendMeetingEmail(deps, { meetingId, kind });
    },
    async cancelUnconfirmed(meetingId: string): Promise<boolean> {
      return steps.cancelUnconfirmed(deps, { meetingId });
    },
    async markCompleted(meetingId: string): Promise<boolean> {
      return steps.markCompleted(deps, { meetingId });
    },
    async createVideoMeeting(meetingId: string): Promise<boolean> {
      return withZoomFailures(() => steps.createVideoMeeting(deps, { meetingId }));
    },
    async deleteVideoMeeting(input: CleanupWorkflowInput): Promise<void> {
      return withZoomFailures(() => steps.deleteVideoMeeting(deps, input));
    },
    async deleteCalendarEvents(input: CleanupWorkflowInput): Promise<number> {
      return steps.deleteCalendarEvents(deps, input);
    },
    async sendCancellationEmail(input: CleanupWorkflowInput): Promise<boolean> {
      return steps.sendCancellationEmail(deps, input);
    },
  };
}

export type SchedulingActivities = ReturnType<typeof schedulingActivities>;
