import type { AccountEmailInput, EmailOutcome, InvitationEmailInput } from '../../workflows/accounts/contract';
import { emailChangeMail, emailChangeNotice, invitationMail, passwordResetMail } from '../mail/render/accounts';
import { mailHost, publicUrl } from '../mail/render/links';
import { issueToken } from './tokens';
import type { WorkerDeps } from '../deps';

/** The accounts feature's emails (the invitation and account workflows' steps): each re-reads the database, issues the link token and sends one email. */

/**
 * The invitation email of one send, or its reminder. Skipped when the invitation is no longer
 * pending, has expired, or was sent again since (a later send owns the reminder).
 */
export async function sendInvitationEmail(deps: WorkerDeps, input: InvitationEmailInput): Promise<EmailOutcome> {
  const { db, mailer, config } = deps;
  const inv = await db('team_invitations as i')
    .join('teams as t', 't.id', 'i.team_id')
    .leftJoin('users as u', 'u.id', 'i.invited_by')
    .where({ 'i.id': input.invitationId, 'i.team_id': input.teamId, 'i.status': 'pending', 'i.send_count': input.send })
    .where('i.expires_at', '>', db.fn.now())
    .first('i.email', 'i.role', 'i.expires_at', 't.name as team_name', 'u.name as inviter_name');
  if (!inv) return 'skipped';
  const which = input.reminder ? 'reminder' : 'invite';
  const token = await issueToken(deps, {
    kind: 'invitation',
    invitationId: input.invitationId,
    requestId: `invitation-${input.invitationId}-${input.send}-${which}`,
    expiresAt: inv.expires_at,
  });
  const mail = invitationMail({
    teamName: inv.team_name,
    inviterName: inv.inviter_name,
    role: inv.role,
    url: publicUrl(config, `/account/invitations/${token}`),
    expiresAt: new Date(inv.expires_at),
    reminder: input.reminder,
  });
  await mailer.send({
    to: inv.email,
    ...mail,
    messageId: `<invitation-${input.invitationId}-${input.send}-${which}@${mailHost(config)}>`,
    headers: { 'X-Invitation-Id': input.invitationId },
  });
  return 'sent';
}

/** The password-reset link, or the confirmation of a new address (plus a notice to the old one). */
export async function sendAccountEmail(deps: WorkerDeps, input: AccountEmailInput): Promise<EmailOutcome> {
  const { db, mailer, config } = deps;
  const expiresAt = new Date(input.expiresAt);
  if (expiresAt.getTime() <= Date.now()) return 'skipped';
  const user = await db('users').where({ id: input.userId }).whereNull('removed_at').first('id', 'email');
  if (!user) return 'skipped';
  const messageId = `<${input.kind}-${input.requestId}@${mailHost(config)}>`;
  if (input.kind === 'password_reset') {
    const token = await issueToken(deps, { kind: 'password_reset', userId: user.id, requestId: input.requestId, expiresAt });
    const mail = passwordResetMail({ url: publicUrl(config, `/account/reset-password/${token}`), expiresAt });
    await mailer.send({ to: user.email, ...mail, messageId, headers: { 'X-Account-Email': 'password_reset' } });
    return 'sent';
  }
  const taken = await db('users').where({ email: input.newEmail }).whereNot({ id: user.id }).first('id');
  if (taken) return 'skipped';
  const token = await issueToken(deps, {
    kind: 'email_change',
    userId: user.id,
    requestId: input.requestId,
    newEmail: input.newEmail,
    expiresAt,
  });
  const mail = emailChangeMail({ url: publicUrl(config, `/account/confirm-email/${token}`), newEmail: input.newEmail, expiresAt });
  await mailer.send({ to: input.newEmail, ...mail, messageId, headers: { 'X-Account-Email': 'email_change' } });
  await mailer.send({
    to: user.email,
    ...emailChangeNotice({ newEmail: input.newEmail }),
    messageId: `<email_change_notice-${input.requestId}@${mailHost(config)}>`,
    headers: { 'X-Account-Email': 'email_change_notice' },
  });
  return 'sent';
}
