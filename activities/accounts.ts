import type { AccountEmailInput, EmailOutcome, InvitationEmailInput } from '../workflows/accounts/contract';
import { sendAccountEmail, sendInvitationEmail } from '../services/accounts/account-mail';
import type { ActivityDeps } from './deps';

/** Activities of the accounts feature: adapters of services/accounts/account-mail.ts. */
export function accountsActivities(deps: ActivityDeps) {
  return {
    async sendInvitationEmail(input: InvitationEmailInput): Promise<EmailOutcome> {
      return sendInvitationEmail(deps, input);
    },
    async sendAccountEmail(input: AccountEmailInput): Promise<EmailOutcome> {
      return sendAccountEmail(deps, input);
    },
  };
}
