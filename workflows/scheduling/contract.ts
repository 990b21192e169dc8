import { defineSignal } from '@temporalio/workflow';
/** The scheduling workflows' contract: ids, signals and inputs (shared by services, activities and workflows). */
export const bookingWorkflowId = (meetingId: string) => `booking-${meetingId}`;
export const cleanupWorkflowId = (meetingId: string) => `meeting-cleanup-${meetingId}`;
/** The host confirmed a pending booking. */
export const meetingConfirmedSignal = defineSignal('meetingConfirmed');
/** The meeting was cancelled or deleted: stop reminders. */
export const meetingCancelledSignal = defineSignal('meetingCancelled');

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
