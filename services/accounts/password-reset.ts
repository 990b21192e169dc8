import type { ServiceDeps } from '../deps';
import { hashPassword } from '../../core/passwords';
import { uuid } from '../../core/crypto';
import { transactionWithOutbox } from '../../temporal/outbox';
import { accountEmailWorkflowId, PASSWORD_RESET_TTL_MS } from '../../workflows/accounts/contract';
import { consumeResetRequest } from './throttle';
import { findLiveToken, markUsed } from './tokens';
import { passwordProblem } from './password-policy';
import { deleteUserSessions, evictAll } from './revoke';

/**
 * Ask for a reset link. The caller always gets the same answer (202), whether the address has an
 * account or not; only an account's request starts the email workflow. Limited per IP and per
 * address (429), counted the same way whether the address exists or not.
 */
export async function requestPasswordReset(deps: ServiceDeps, { email, ip }: { email: string; ip: string }): Promise<void> {
  await consumeResetRequest(deps, { email, ip });
  const user = await deps.db('users').where({ email }).whereNull('removed_at').first('id');
  if (!user) return;
  const requestId = uuid();
  await transactionWithOutbox(deps.db, deps.outbox, async (_trx, enqueue) => {
    await enqueue({
      workflowType: 'accountEmailWorkflow',
      workflowId: accountEmailWorkflowId(requestId),
      args: [{ kind: 'password_reset', requestId, userId: user.id, expiresAt: new Date(Date.now() + PASSWORD_RESET_TTL_MS).toISOString() }],
      summary: `Password reset email for user ${user.id}`,
    });
  });
}

/** The account a live reset link is for (its email, for the page), or undefined. */
export async function resetTarget(deps: Pick<ServiceDeps, 'db'>, { token }: { token: string }): Promise<{ email: string } | undefined> {
  const t = await findLiveToken(deps.db, { kind: 'password_reset', token });
  if (!t?.user_id) return undefined;
  return deps.db('users').where({ id: t.user_id }).whereNull('removed_at').first('email');
}

export type ResetOutcome =
  { ok: true; email: string } | { ok: false; reason: 'invalid_link' } | { ok: false; reason: 'bad_input'; message: string };

/**
 * Set a new password with a reset link: the link works once, every other reset link of the user
 * dies with it, and every session of the user is signed out.
 */
export async function resetPassword(
  deps: Pick<ServiceDeps, 'db' | 'config'>,
  { token, password }: { token: string; password: string },
): Promise<ResetOutcome> {
  const target = await resetTarget(deps, { token });
  if (!target) return { ok: false, reason: 'invalid_link' };
  const problem = passwordProblem(password, target.email);
  if (problem) return { ok: false, reason: 'bad_input', message: problem };
  const passwordHash = await hashPassword(deps.config, password);
  const revoked = await deps.db.transaction(async (trx) => {
    const t = await findLiveToken(trx, { kind: 'password_reset', token, forUpdate: true });
    if (!t?.user_id) return null;
    const n = await trx('users')
      .where({ id: t.user_id })
      .whereNull('removed_at')
      .update({ password_hash: passwordHash, updated_at: trx.fn.now() });
    if (!n) return null;
    await markUsed(trx, t.id);
    await trx('account_tokens').where({ user_id: t.user_id, kind: 'password_reset' }).whereNull('used_at').delete();
    return deleteUserSessions(trx, { userId: t.user_id });
  });
  if (!revoked) return { ok: false, reason: 'invalid_link' };
  evictAll(revoked);
  return { ok: true, email: target.email };
}
