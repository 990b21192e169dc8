import { recordReviewStage, sendReviewReminder, sendReviewStatusEmail, type StageInput } from '../services/oauth/review-steps';
import type { ActivityDeps } from './deps';

/** Activities of the app-review workflow: adapters of services/oauth/review-steps.ts. */
export function appReviewActivities(deps: ActivityDeps) {
  return {
    async recordReviewStage(
      input: StageInput & { outcome: string | null; notes: string | null; actorUserId: string | null },
    ): Promise<boolean> {
      return recordReviewStage(deps, input);
    },
    async sendReviewStatusEmail(input: StageInput & { notes: string | null }): Promise<void> {
      return sendReviewStatusEmail(deps, input);
    },
    async sendReviewReminder(input: StageInput & { waitingSinceBusinessDays: number }): Promise<number> {
      return sendReviewReminder(deps, input);
    },
  };
}
