import { condition, proxyActivities, setCurrentDetails, setHandler } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import { INVITATION_REMINDER_AFTER_MS, invitationClosedSignal, type EmailOutcome, type InvitationWorkflowInput } from './contract';

// SMTP may be down for a while: retried with backoff for about a day, then given up (logged in Temporal).
const { sendInvitationEmail } = proxyActivities<Pick<Activities, 'sendInvitationEmail'>>({
  startToCloseTimeout: '1m',
  retry: { initialInterval: '10s', backoffCoefficient: 2, maximumInterval: '1h', maximumAttempts: 30 },
});

/**
 * `invitation-<id>-<send>`: emails the invitation, then, unless it is accepted, revoked or sent
 * again within 3 days, reminds once. The activity re-reads the invitation before each email, so a
 * lost signal only means a reminder that finds nothing to do.
 */
export async function invitationWorkflow(input: InvitationWorkflowInput): Promise<{ invitation: EmailOutcome; reminder: EmailOutcome }> {
  let closed = false;
  setHandler(invitationClosedSignal, () => {
    closed = true;
  });
  setCurrentDetails('invitation: sending the email');
  const invitation = await sendInvitationEmail({ ...input, reminder: false });
  if (invitation === 'skipped') return { invitation, reminder: 'skipped' };
  setCurrentDetails(
    `invitation: ${invitation}; reminder due ${new Date(Date.now() + INVITATION_REMINDER_AFTER_MS).toISOString()} unless accepted or revoked`,
  );
  if (await condition(() => closed, INVITATION_REMINDER_AFTER_MS)) return { invitation, reminder: 'skipped' };
  return { invitation, reminder: await sendInvitationEmail({ ...input, reminder: true }) };
}
