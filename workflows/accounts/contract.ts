import { defineSignal } from '@temporalio/workflow';
/** The accounts workflows' contract: ids, signals and inputs (shared by services, activities and workflows). */

/** One workflow per send of an invitation (the first one and each resend). */
export const invitationWorkflowId = (invitationId: string, send: number) => `invitation-${invitationId}-${send}`;
/** One workflow per password-reset or email-change request. */
export const accountEmailWorkflowId = (requestId: string) => `account-email-${requestId}`;

/** An invitation not accepted this long after it was sent gets one reminder. */
export const INVITATION_REMINDER_AFTER_MS = 3 * 24 * 3600 * 1000;
/** An invitation (and the link in it) is valid this long after it was sent. */
export const INVITATION_TTL_MS = 7 * 24 * 3600 * 1000;
/** A password-reset link is valid this long after it was asked for. */
export const PASSWORD_RESET_TTL_MS = 3600 * 1000;
/** An email-change confirmation link is valid this long. */
export const EMAIL_CHANGE_TTL_MS = 24 * 3600 * 1000;

/** The invitation was accepted, revoked or sent again: the workflow of this send has nothing left to do. */
export const invitationClosedSignal = defineSignal('invitationClosed');

export interface InvitationWorkflowInput {
  invitationId: string;
  teamId: string;
  /** Which send this is (1 for the first, +1 per resend): only the latest send reminds. */
  send: number;
}

export interface InvitationEmailInput extends InvitationWorkflowInput {
  reminder: boolean;
}

export type AccountEmailInput =
  | { kind: 'password_reset'; requestId: string; userId: string; expiresAt: string }
  | { kind: 'email_change'; requestId: string; userId: string; newEmail: string; expiresAt: string };

/** `sent`, or `skipped` when the invitation or request no longer needs the email. */
export type EmailOutcome = 'sent' | 'skipped';

/** The start signatures of this feature's workflows (workflows/starts.ts: the outbox's type map). */
export interface AccountsStarts {
  invitationWorkflow(input: InvitationWorkflowInput): Promise<{ invitation: EmailOutcome; reminder: EmailOutcome }>;
  accountEmailWorkflow(input: AccountEmailInput): Promise<EmailOutcome>;
}
