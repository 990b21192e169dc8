import { sendSubmissionNotification } from '../services/forms/notify-mail';
import type { ActivityDeps } from './deps';

/** Activities of the forms feature: adapters of services/forms/notify-mail.ts. */
export function formsActivities(deps: ActivityDeps) {
  return {
    async sendSubmissionNotification(input: { submissionId: string }): Promise<number> {
      return sendSubmissionNotification(deps, input);
    },
  };
}
