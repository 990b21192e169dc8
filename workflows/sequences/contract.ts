/** The sequences workflows' contract: ids, signals, queries, inputs and results (imported by services, activities and workflows). */
import { defineQuery, defineSignal } from '@temporalio/workflow';

export const enrollmentWorkflowId = (enrollmentId: string) => `enrollment-${enrollmentId}`;

/**
 * The enrollment workflow's code version for new starts (docs/sequences.md, "Workflow changes").
 * Absent in the input of workflows started before it existed: they keep the commands they were
 * recorded with.
 */
export const ENROLLMENT_CODE_VERSION = 2;

export interface EnrollmentInput {
  enrollmentId: string;
  /** Every version a running workflow may have been started with (the workflow keeps a branch for each). */
  version?: 2;
}

export interface EnrollmentResult {
  status: string;
  reason: string | null;
  sent: number;
}

/** What the signalling workflow delivers to each `enrollment-<id>` workflow. */
export type EnrollmentSignal = { name: 'exit'; reason: string } | { name: 'resume' };

export interface SignalsInput {
  workflowIds: string[];
  signal: EnrollmentSignal;
}

/** Stop the enrollment at once; the database row already carries the reason. */
export const exitSignal = defineSignal<[{ reason: string }]>('exit');
/** The sequence was resumed: re-check a step held by a pause now. */
export const resumeSignal = defineSignal('resume');
/** Where the enrollment is, for operators and tests. */
export const enrollmentStateQuery = defineQuery<{ phase: string; stepId: string | null; exitReason: string | null }>('state');

/** The start signatures of this feature's workflows (workflows/starts.ts: the outbox's type map). */
export interface SequencesStarts {
  sequenceEnrollmentWorkflow(input: EnrollmentInput): Promise<EnrollmentResult>;
  sequenceSignalsWorkflow(input: SignalsInput): Promise<{ delivered: number }>;
}
