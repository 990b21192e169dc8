/** Deterministic workflow ids and signal names of the scheduling feature (shared by API and workflows). */
export const bookingWorkflowId = (meetingId: string) => `booking-${meetingId}`;
export const cleanupWorkflowId = (meetingId: string) => `meeting-cleanup-${meetingId}`;
export const MEETING_CONFIRMED_SIGNAL = 'meetingConfirmed';
export const MEETING_CANCELLED_SIGNAL = 'meetingCancelled';

export interface BookingWorkflowInput {
  meetingId: string;
  teamId: string;
}

/** A snapshot, so the cleanup still works after DELETE removed the meeting row. */
export interface CleanupWorkflowInput {
  meetingId: string;
  teamId: string;
  calendarEventIds: string[];
  meetingLink: string | null;
  locationType: string | null;
  title: string;
  startTime: string;
  endTime: string;
  attendeeName: string;
  attendeeEmail: string;
  hostUserId: string;
  reason: string | null;
  /** Send the attendee a cancellation email (the meeting was still going to happen). */
  notifyAttendee: boolean;
}
