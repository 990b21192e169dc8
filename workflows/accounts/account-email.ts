import { proxyActivities, setCurrentDetails } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import type { AccountEmailInput, EmailOutcome } from './contract';

// A reset link is useless after an hour: retried for a short while only.
const { sendAccountEmail } = proxyActivities<Pick<Activities, 'sendAccountEmail'>>({
  startToCloseTimeout: '1m',
  retry: { initialInterval: '5s', backoffCoefficient: 2, maximumInterval: '5m', maximumAttempts: 10 },
});

/** `account-email-<request_id>`: the password-reset link, or the confirmation link of a new email address. */
export async function accountEmailWorkflow(input: AccountEmailInput): Promise<EmailOutcome> {
  setCurrentDetails(`sending the ${input.kind.replace('_', ' ')} email`);
  return sendAccountEmail(input);
}
