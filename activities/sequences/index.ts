import type { ActivityDeps } from '../deps';
import { nextStep, type NextStep } from './plan';
import { sendStep, startEnrollment, type SendResult, type StartResult } from './send';

export type { NextStep, SendResult, StartResult };

/** Activities of the sequences feature. */
export function sequencesActivities(deps: ActivityDeps) {
  return {
    /** The first step to run (or the end) for a newly started enrollment workflow (workflows started before `version: 2`). */
    async seqNextStep(input: { enrollmentId: string }): Promise<NextStep> {
      return nextStep(deps.db, input.enrollmentId);
    },
    /** The first step to run (or the end) and, when it is due at once, its send. */
    async seqStartEnrollment(input: { enrollmentId: string; now: number }): Promise<StartResult> {
      return startEnrollment(deps, input);
    },
    /** Re-check, claim, render and send one step; then the step after it. */
    async seqSendStep(input: { enrollmentId: string; stepId: string; now: number }): Promise<SendResult> {
      return sendStep(deps, input);
    },
  };
}
