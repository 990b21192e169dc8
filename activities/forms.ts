import { sendSubmissionNotification } from '../services/forms/notify-mail';
import type { ActivityDeps } from './deps';
import { followUpUnbooked } from '../services/forms/unbooked';
import type { UnbookedFollowUpInput, UnbookedOutcome } from '../workflows/forms/contract';

/** Activities of the forms feature: adapters of services/forms/notify-mail.ts and unbooked.ts. */
export function formsActivities(deps: ActivityDeps) {
  return {
    async sendSubmissionNotification(input: { submissionId: string }): Promise<number> {
      return sendSubmissionNotification(deps, input);
    },
    async followUpUnbooked(input: UnbookedFollowUpInput): Promise<UnbookedOutcome> {
      return followUpUnbooked(deps, input);
    },
  };
}
