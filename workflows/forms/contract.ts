import { defineSignal } from '@temporalio/workflow';
/** The forms workflows' contract (imported by services and the workflow). */
export const submissionNotificationWorkflowId = (submissionId: string) => `form-notify-${submissionId}`;

export interface SubmissionNotificationInput {
  submissionId: string;
}

/** One follow-up per routed submission (docs/forms.md "Routing": `settings.routing.unbooked`). */
export const unbookedFollowUpWorkflowId = (submissionId: string) => `form-unbooked-${submissionId}`;

export interface UnbookedFollowUpInput {
  submissionId: string;
  teamId: string;
  sequenceId: string;
  /** How long to wait for a meeting booked from the submission, in ms. */
  waitMs: number;
}

/** `booked`: a meeting came from the submission; `enrolled`: the contact was enrolled; `skipped`: nothing to enroll (no contact, or the sequence refused). */
export type UnbookedOutcome = 'booked' | 'enrolled' | 'skipped';

/** A meeting was booked from the routed submission: the follow-up ends (the activity re-checks anyway). */
export const routedMeetingBookedSignal = defineSignal('routedMeetingBooked');

/** The start signatures of this feature's workflows (workflows/starts.ts: the outbox's type map). */
export interface FormsStarts {
  submissionNotificationWorkflow(input: SubmissionNotificationInput): Promise<number>;
  unbookedFollowUpWorkflow(input: UnbookedFollowUpInput): Promise<UnbookedOutcome>;
}
