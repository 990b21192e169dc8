import { sendSubmissionNotification } from '../services/forms/notify-mail';
import type { ActivityDeps } from './deps';

/** Activities of the forms feature: adapter of services/forms/notify-mail.ts (the routing follow-up is activities/routing-followup.ts). */
export function formsActivities(deps: ActivityDeps) {
  return {
    async sendSubmissionNotification(input: { submissionId: string }): Promise<number> {
      return sendSubmissionNotification(deps, input);
    },
  };
}
