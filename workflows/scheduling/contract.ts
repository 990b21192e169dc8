import { defineSignal } from '@temporalio/workflow';
/** The scheduling workflows' contract: ids, signals and inputs (shared by services, activities and workflows). */
export const bookingWorkflowId = (meetingId: string) => `booking-${meetingId}`;
export const cleanupWorkflowId = (meetingId: string) => `meeting-cleanup-${meetingId}`;
/** After the meeting: recording, transcript, AI notes (docs/scheduling.md "After the meeting"). */
export const followupWorkflowId = (meetingId: string) => `meeting-followup-${meetingId}`;
/** The notes step again, after an integrator brought a recording or a transcript (`n`: a fresh id per request). */
export const notesWorkflowId = (meetingId: string, n: string) => `meeting-notes-${meetingId}-${n}`;
/** The host confirmed a pending booking. */
export const meetingConfirmedSignal = defineSignal('meetingConfirmed');
/** The meeting was cancelled or deleted: stop reminders. */
export const meetingCancelledSignal = defineSignal('meetingCancelled');
/** The video provider said something of the meeting (Zoom's webhooks): the follow-up reads what it stored. */
export const videoProviderEventSignal = defineSignal('videoProviderEvent');

/**
 * The booking workflow's code version for new starts (docs/scheduling.md "Booking workflow code
 * versions"). Absent in the input of workflows started before it: they keep the commands they were
 * recorded with (patched() markers, one activity per step).
 */
export const BOOKING_CODE_VERSION = 2;

export interface BookingWorkflowInput {
  meetingId: string;
  teamId: string;
  /** Every version a running workflow may have been started with (the workflow keeps a branch for each). */
  version?: 2;
  /** Set when this meeting replaces a rescheduled one: its first email is the update (same UID, SEQUENCE + 1). */
  rescheduledFromId?: string;
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
  /** Send the cancellation emails (the meeting was still going to happen). */
  notifyAttendee: boolean;
  // Added with the booking lifecycle; absent in cleanups started before it (treated as empty/defaults).
  guests?: string[];
  coHostUserIds?: string[];
  icalUid?: string;
  icalSequence?: number;
  timezone?: string;
  /** Every party had the REQUEST (the meeting was confirmed): every party gets the CANCEL. */
  invited?: boolean;
}

/** What the booking workflow decides on: the meeting as it is now (null: it was deleted). */
export interface MeetingState {
  status: string;
  startMs: number;
  endMs: number;
  lapseMs: number;
}

/** The answer of the version-2 first step (activities/booking.ts `beginBooking`). */
export interface BookingStart {
  state: MeetingState | null;
  /** The host has a booking calendar: write the meeting to it. */
  calendar: boolean;
}

export interface FollowupWorkflowInput {
  meetingId: string;
  teamId: string;
}

/** The follow-up's first step: when to ask, and for how long to keep asking (null: the meeting was deleted). */
export interface FollowupPlan {
  endMs: number;
  graceMs: number;
  /** How long the provider may keep answering "still processing" (MEETING_RECORDING_WAIT_HOURS). */
  recordingWaitMs: number;
}

/** After the grace period: whether the meeting took place, and what to ask its provider for. */
export interface FollowupBegin {
  held: boolean;
  status: string;
  /** The provider has a recordings API. */
  recording: boolean;
  /** …and the event type has AI notes on: fetch the transcript too. */
  transcript: boolean;
  /** The provider's events the follow-up waits for instead of asking (Zoom: docs/scheduling.md "Zoom"). */
  waitFor?: string[];
}

/** What the video provider's events have brought so far (Zoom). */
export interface ProviderEventsSeen {
  recording: boolean;
  transcript: boolean;
  /** The host deleted the video meeting at the provider: nothing more will come. */
  deleted: boolean;
}

/** The start signatures of this feature's workflows (workflows/starts.ts: the outbox's type map). */
export interface SchedulingStarts {
  bookingWorkflow(input: BookingWorkflowInput): Promise<string>;
  meetingCleanupWorkflow(input: CleanupWorkflowInput): Promise<void>;
  meetingFollowupWorkflow(input: FollowupWorkflowInput): Promise<string>;
  meetingNotesWorkflow(input: FollowupWorkflowInput): Promise<string>;
}
