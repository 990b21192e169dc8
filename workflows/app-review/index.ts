import { condition, proxyActivities, setCurrentDetails, setHandler, upsertMemo } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import { addBusinessDays } from './business-days';
import { decisionSignal, resubmitSignal, stageQuery, type ReviewDecision, type ReviewInput, type ReviewStage } from './contract';

export * from './contract';

/** A review waiting longer than this many business days reminds the staff. */
export const REMINDER_BUSINESS_DAYS = 5;

const { recordReviewStage, sendReviewStatusEmail, sendReviewReminder } = proxyActivities<Activities>({
  startToCloseTimeout: '30s',
  retry: { initialInterval: '5s', backoffCoefficient: 2, maximumInterval: '10m' },
});

/**
 * `app-review-<app_id>`: submission → review → security verification → (changes requested →
 * back to review) → approved and listed, or rejected. Each stage change is recorded and emailed
 * to the developer; a stage that waits more than 5 business days for a reviewer reminds the staff.
 */
export async function appReviewWorkflow(input: ReviewInput): Promise<ReviewStage> {
  let stage: ReviewStage = 'submission';
  let decision: ReviewDecision | undefined;
  let resubmitted = false;
  setHandler(stageQuery, () => stage);
  setHandler(decisionSignal, (d) => {
    if (d.stage === stage && !decision) decision = d;
  });
  setHandler(resubmitSignal, () => {
    if (stage === 'changes_requested') resubmitted = true;
  });

  /** Record and announce a stage; false when the app (or this round) no longer exists. */
  const enter = async (next: ReviewStage, by?: ReviewDecision): Promise<boolean> => {
    // A decision or resubmission belongs to one stage; it may arrive while this stage's email is sent.
    decision = undefined;
    resubmitted = false;
    stage = next;
    upsertMemo({ stage: next });
    setCurrentDetails(`review: ${next.replace('_', ' ')}`);
    const exists = await recordReviewStage({
      ...input,
      stage: next,
      outcome: by?.outcome ?? null,
      notes: by?.notes ?? null,
      actorUserId: by?.reviewerId ?? null,
    });
    if (exists) await sendReviewStatusEmail({ ...input, stage: next, notes: by?.notes ?? null });
    return exists;
  };

  const awaitDecision = async (): Promise<ReviewDecision> => {
    const deadline = addBusinessDays(new Date(Date.now()), REMINDER_BUSINESS_DAYS);
    setCurrentDetails(`review: ${stage.replace('_', ' ')}, waiting for a staff decision; staff reminded at ${deadline.toISOString()}`);
    if (!(await condition(() => decision !== undefined, deadline.getTime() - Date.now()))) {
      await sendReviewReminder({ ...input, stage, waitingSinceBusinessDays: REMINDER_BUSINESS_DAYS });
      setCurrentDetails(`review: ${stage.replace('_', ' ')}, waiting for a staff decision (reminder sent ${deadline.toISOString()})`);
      await condition(() => decision !== undefined);
    }
    return decision!;
  };

  if (!(await enter('submission'))) return stage;
  for (;;) {
    if (!(await enter('review'))) return stage;
    let d = await awaitDecision();
    if (d.outcome === 'approve') {
      if (!(await enter('security_verification', d))) return stage;
      d = await awaitDecision();
      if (d.outcome === 'approve') {
        await enter('approved', d);
        return stage;
      }
    }
    if (d.outcome === 'reject') {
      await enter('rejected', d);
      return stage;
    }
    if (!(await enter('changes_requested', d))) return stage;
    setCurrentDetails('review: changes requested, waiting for the developer to resubmit');
    await condition(() => resubmitted);
  }
}
