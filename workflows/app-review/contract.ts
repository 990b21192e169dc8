/** The app review workflow's contract: id, signals, query, input (imported by services and the workflow). */
import { defineQuery, defineSignal } from '@temporalio/workflow';

/** `app-review-<app_id>` for the first review; later rounds (resubmission after rejection, major changes) add `-r<n>`. */
export function reviewWorkflowId(appId: string, round: number): string {
  return round <= 1 ? `app-review-${appId}` : `app-review-${appId}-r${round}`;
}

export type ReviewStage = 'submission' | 'review' | 'security_verification' | 'changes_requested' | 'approved' | 'rejected';
export type StageOutcome = 'approve' | 'request_changes' | 'reject';

export interface ReviewInput {
  appId: string;
  teamId: string;
  round: number;
}

export interface ReviewDecision {
  stage: ReviewStage;
  outcome: StageOutcome;
  notes: string | null;
  reviewerId: string | null;
}

/** A staff reviewer's decision on the current stage (sent by POST /api/staff/apps/:id/decision). */
export const decisionSignal = defineSignal<[ReviewDecision]>('decision');
/** The developer resubmitted after changes were requested. */
export const resubmitSignal = defineSignal('resubmit');
export const stageQuery = defineQuery<ReviewStage>('stage');

/** The start signatures of this feature's workflows (workflows/starts.ts: the outbox's type map). */
export interface AppReviewStarts {
  appReviewWorkflow(input: ReviewInput): Promise<ReviewStage>;
}
