import type { ServiceDeps } from '../deps';
import type { Principal } from '../../core/principal';
import { conflict, notFound, validationFailed } from '../../core/errors';
import { uuid } from '../../core/crypto';
import { verifyPassword } from '../../core/passwords';
import { transactionWithOutbox } from '../../temporal/outbox';
import { accountEmailWorkflowId, EMAIL_CHANGE_TTL_MS } from '../../workflows/accounts/contract';
import { getUser, presentUser, USER_COLUMNS, type UserRow } from './users';
import { checkLoginAllowed, recordLoginFailure } from './throttle';
import { findLiveToken, markUsed } from './tokens';

export interface ProfilePatch {
  name?: string;
  timezone?: string;
  avatar_url?: string | null;
  email?: string;
  current_password?: string;
}

export interface UpdateProfileInput {
  principal: Principal;
  changes: ProfilePatch;
  ip: string;
}

/**
 * Name, timezone and avatar change at once. A new email address needs the current password and
 * takes effect only when confirmed from the new address (a link sent by `accountEmailWorkflow`);
 * the answer carries it as `pending_email`. A wrong password counts toward the sign-in throttle.
 */
export async function updateProfile(deps: ServiceDeps, { principal, changes: patch, ip }: UpdateProfileInput) {
  const { db } = deps;
  const current = await getUser(deps, { teamId: principal.teamId, userId: principal.userId });
  if (!current) throw notFound('User');
  const newEmail = patch.email !== undefined && patch.email.toLowerCase() !== current.email.toLowerCase() ? patch.email : undefined;
  if (patch.current_password !== undefined && patch.email === undefined) {
    throw validationFailed([{ path: 'current_password', message: 'is only needed to change the email address' }]);
  }
  if (newEmail) {
    if (!patch.current_password) throw validationFailed([{ path: 'current_password', message: 'is required to change the email address' }]);
    await checkLoginAllowed(deps, { email: current.email, ip });
    const row = await db('users').where({ id: current.id }).first('password_hash');
    const ok = row?.password_hash ? await verifyPassword(row.password_hash, patch.current_password) : false;
    if (!ok) {
      await recordLoginFailure(deps, { email: current.email, ip });
      throw validationFailed([{ path: 'current_password', message: 'is not correct' }]);
    }
    if (await db('users').where({ email: newEmail }).whereNot({ id: current.id }).first('id')) {
      throw conflict('A user with this email already exists');
    }
  }
  const fields = {
    ...(patch.name !== undefined ? { name: patch.name } : {}),
    ...(patch.timezone !== undefined ? { timezone: patch.timezone } : {}),
    ...(patch.avatar_url !== undefined ? { avatar_url: patch.avatar_url } : {}),
  };
  const user = await transactionWithOutbox(db, deps.outbox, async (trx, enqueue) => {
    const [u] = (await trx('users')
      .where({ id: current.id })
      .update({ ...fields, updated_at: trx.fn.now() })
      .returning(USER_COLUMNS)) as UserRow[];
    if (newEmail) {
      const requestId = uuid();
      await enqueue({
        workflowType: 'accountEmailWorkflow',
        workflowId: accountEmailWorkflowId(requestId),
        args: [
          { kind: 'email_change', requestId, userId: u.id, newEmail, expiresAt: new Date(Date.now() + EMAIL_CHANGE_TTL_MS).toISOString() },
        ],
        summary: `Email change confirmation for user ${u.id}`,
      });
    }
    return u;
  });
  return { ...presentUser(user), ...(newEmail ? { pending_email: newEmail } : {}) };
}

export type ConfirmOutcome = { ok: true; email: string } | { ok: false; reason: 'invalid_link' | 'taken' };

/** The new address a live confirmation link is for, or undefined. */
export async function emailChangeTarget(
  deps: Pick<ServiceDeps, 'db'>,
  { token }: { token: string },
): Promise<{ newEmail: string } | undefined> {
  const t = await findLiveToken(deps.db, { kind: 'email_change', token });
  return t?.new_email ? { newEmail: t.new_email } : undefined;
}

/** Apply a confirmed email change (the link works once). */
export async function confirmEmailChange(deps: Pick<ServiceDeps, 'db'>, { token }: { token: string }): Promise<ConfirmOutcome> {
  try {
    return await deps.db.transaction(async (trx) => {
      const t = await findLiveToken(trx, { kind: 'email_change', token, forUpdate: true });
      if (!t?.user_id || !t.new_email) return { ok: false as const, reason: 'invalid_link' as const };
      const n = await trx('users')
        .where({ id: t.user_id })
        .whereNull('removed_at')
        .update({ email: t.new_email, updated_at: trx.fn.now() });
      if (!n) return { ok: false as const, reason: 'invalid_link' as const };
      await markUsed(trx, t.id);
      await trx('account_tokens').where({ user_id: t.user_id, kind: 'email_change' }).whereNull('used_at').delete();
      return { ok: true as const, email: t.new_email };
    });
  } catch (err) {
    if ((err as { code?: string }).code === '23505') return { ok: false, reason: 'taken' };
    throw err;
  }
}
