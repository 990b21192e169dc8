import type { CleanupWorkflowInput } from '../workflows/scheduling/contract';
import type { BookingStart, MeetingState } from '../workflows/scheduling/contract';
import type { MeetingEmailKind } from '../services/scheduling/meeting-emails';
import * as steps from '../services/scheduling/meeting-steps';
import type { ActivityDeps } from './deps';
import { withZoomFailures } from './zoom-failures';
import { withCalendarWriteFailures } from './calendars/write-back';

export type { MeetingEmailKind } from '../services/scheduling/meeting-emails';

/**
 * Activities of a booking's life (the booking and meeting cleanup workflows): adapters of
 * services/scheduling/meeting-steps.ts. The calendar write-back (activities/calendars/write-back.ts)
 * and the follow-up (activities/meeting-followup.ts) have their own modules. Running workflows call
 * these by name: keep every name.
 */
export function bookingActivities(deps: ActivityDeps) {
  return {
    async loadMeetingState(meetingId: string): Promise<MeetingState | null> {
      return steps.loadMeetingState(deps, { meetingId });
    },
    async beginBooking(meetingId: string, firstKind: 'confirmation' | 'update'): Promise<BookingStart> {
      return withZoomFailures(() => withCalendarWriteFailures(() => steps.beginBooking(deps, { meetingId, firstKind })));
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
      return withZoomFailures(() => withCalendarWriteFailures(() => steps.createVideoMeeting(deps, { meetingId })));
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

export type BookingActivities = ReturnType<typeof bookingActivities>;
