import { Context } from '@temporalio/activity';
import { startEnrollment, sendStep, type SendResult, type SendRun, type StartResult } from '../../services/sequences/send-step';
import { nextStep, type NextStep } from '../../services/sequences/step-plan';
import type { ActivityDeps } from '../deps';

export type { NextStep, SendResult, StartResult };

/** The running activity's attempt and heartbeat (a local activity does not heartbeat); none when called directly. */
function run(): SendRun | undefined {
  try {
    const ctx = Context.current();
    return { attempt: ctx.info.attempt, heartbeat: () => (ctx.info.isLocal ? undefined : ctx.heartbeat()) };
  } catch {
    return undefined; // not inside an activity: the use case takes attempt 1, no heartbeat
  }
}

/** Activities of the sequences feature: adapters of the use cases in services/sequences/. */
export function sequencesActivities(deps: ActivityDeps) {
  return {
    /** The first step to run (or the end) for a newly started enrollment workflow (workflows started before `version: 2`). */
    async seqNextStep(input: { enrollmentId: string }): Promise<NextStep> {
      return nextStep(deps.db, input.enrollmentId);
    },
    /** The first step to run (or the end) and, when it is due at once, its send. */
    async seqStartEnrollment(input: { enrollmentId: string; now: number }): Promise<StartResult> {
      return startEnrollment(deps, { ...input, run: run() });
    },
    /** Re-check, claim, render and send one step; then the step after it. */
    async seqSendStep(input: { enrollmentId: string; stepId: string; now: number }): Promise<SendResult> {
      return sendStep(deps, { ...input, run: run() });
    },
  };
}
