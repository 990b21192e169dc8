import type { ActivityDeps } from '../deps';
import { nextStep, type NextStep } from './plan';
import { sendStep, type SendResult } from './send';

export type { NextStep, SendResult };

/** Activities of the sequences feature. */
export function sequencesActivities(deps: ActivityDeps) {
  return {
    /** The first step to run (or the end) for a newly started enrollment workflow. */
    async seqNextStep(input: { enrollmentId: string }): Promise<NextStep> {
      return nextStep(deps.db, input.enrollmentId);
    },
    /** Re-check, claim, render and send one step; then the step after it. */
    async seqSendStep(input: { enrollmentId: string; stepId: string; now: number }): Promise<SendResult> {
      return sendStep(deps, input);
    },
  };
}
