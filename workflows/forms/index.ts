import { proxyActivities, setCurrentDetails } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import type { SubmissionNotificationInput } from './contract';

// SMTP may be down for a while: retried with backoff for about a day, then given up (logged in Temporal).
const { sendSubmissionNotification } = proxyActivities<Pick<Activities, 'sendSubmissionNotification'>>({
  startToCloseTimeout: '1m',
  retry: { initialInterval: '10s', backoffCoefficient: 2, maximumInterval: '1h', maximumAttempts: 30 },
});

/**
 * `form-notify-<submission_id>`: emails a completed submission to the form's `notify_emails`.
 * Returns how many addresses the message went to (0 when the submission or the list is gone).
 */
export async function submissionNotificationWorkflow(input: SubmissionNotificationInput): Promise<number> {
  setCurrentDetails('sending the submission notification (SMTP retried for about a day)');
  return sendSubmissionNotification(input);
}
export * from './unbooked';
