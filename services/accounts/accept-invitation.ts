import type { ServiceDeps } from '../deps';
import type { Executor } from '../../db/knex';
import { hashPassword } from '../../core/passwords';
import type { Role } from '../../core/scopes';
import { createUser } from './users';
import { invitationClosedSignal, invitationWorkflowId } from '../../workflows/accounts/contract';
import { findLiveToken, markUsed } from './tokens';
import { passwordProblem } from './password-policy';

/**
 * Who the invited address is today:
 * - `new`: no account; accepting creates one in the team.
 * - `returning`: an account of this team that cannot sign in (added without a password, or
 *   removed earlier); accepting sets its name and password and gives it the invited role.
 * - `member`: already an active member (nothing to accept).
 * - `other_team`: an account of another team; an account belongs to one team (docs/accounts.md).
 */
export type Invitee = 'new' | 'returning' | 'member' | 'other_team';

export interface InvitationView {
  teamName: string;
  email: string;
  role: Role;
  invitee: Invitee;
  name: string | null;
}

interface Open {
  tokenId: string;
  invitation: { id: string; team_id: string; email: string; role: Role; send_count: number; team_name: string };
}

async function openInvitation(db: Executor, token: string, forUpdate: boolean): Promise<Open | undefined> {
  const t = await findLiveToken(db, { kind: 'invitation', token, forUpdate });
  if (!t?.invitation_id) return undefined;
  const q = db('team_invitations as i')
    .join('teams as t', 't.id', 'i.team_id')
    .where({ 'i.id': t.invitation_id, 'i.status': 'pending' })
    .where('i.expires_at', '>', db.fn.now())
    .first('i.id', 'i.team_id', 'i.email', 'i.role', 'i.send_count', 't.name as team_name');
  if (forUpdate) q.forUpdate('i');
  const invitation = await q;
  return invitation ? { tokenId: t.id, invitation } : undefined;
}

async function invitee(db: Executor, teamId: string, email: string) {
  const user = await db('users').where({ email }).first('id', 'team_id', 'name', 'password_hash', 'removed_at');
  let kind: Invitee = 'new';
  if (user && user.team_id !== teamId) kind = 'other_team';
  else if (user && !user.removed_at && user.password_hash) kind = 'member';
  else if (user) kind = 'returning';
  return { kind, user };
}

/** The page's view of a link, or undefined when the link is unknown, used, expired or revoked. */
export async function invitationView(deps: Pick<ServiceDeps, 'db'>, { token }: { token: string }): Promise<InvitationView | undefined> {
  const open = await openInvitation(deps.db, token, false);
  if (!open) return undefined;
  const who = await invitee(deps.db, open.invitation.team_id, open.invitation.email);
  return {
    teamName: open.invitation.team_name,
    email: open.invitation.email,
    role: open.invitation.role,
    invitee: who.kind,
    name: who.user?.name ?? null,
  };
}

export type AcceptOutcome =
  | { ok: true; teamName: string; email: string; userId: string }
  | { ok: false; reason: 'invalid_link' }
  | { ok: false; reason: 'not_acceptable'; view: InvitationView }
  | { ok: false; reason: 'bad_input'; view: InvitationView; message: string };

export interface AcceptInvitationInput {
  token: string;
  name: string;
  password: string;
}

/**
 * Accept with a name and a password: creates the user in the team, or brings back an account
 * of this team that could not sign in. The token is used once; the invitation becomes accepted.
 */
export async function acceptInvitation(deps: ServiceDeps, input: AcceptInvitationInput): Promise<AcceptOutcome> {
  const { token } = input;
  const view = await invitationView(deps, { token });
  if (!view) return { ok: false, reason: 'invalid_link' };
  if (view.invitee === 'member' || view.invitee === 'other_team') return { ok: false, reason: 'not_acceptable', view };
  const name = input.name.trim();
  if (!name || name.length > 200) return { ok: false, reason: 'bad_input', view, message: 'Enter your name (at most 200 characters).' };
  const problem = passwordProblem(input.password, view.email);
  if (problem) return { ok: false, reason: 'bad_input', view, message: problem };
  const passwordHash = await hashPassword(deps.config, input.password);

  const result = await deps.db.transaction(async (trx) => {
    const open = await openInvitation(trx, token, true);
    if (!open) return undefined;
    const inv = open.invitation;
    const who = await invitee(trx, inv.team_id, inv.email);
    let userId: string;
    if (who.kind === 'new') {
      const user = await createUser(trx, { teamId: inv.team_id, email: inv.email, name, role: inv.role, passwordCost: deps.config });
      userId = user.id;
    } else if (who.kind === 'returning' && who.user) {
      userId = who.user.id;
    } else {
      return null;
    }
    await trx('users')
      .where({ id: userId })
      .update({ name, password_hash: passwordHash, role: inv.role, removed_at: null, updated_at: trx.fn.now() });
    await markUsed(trx, open.tokenId);
    await trx('account_tokens').where({ invitation_id: inv.id }).whereNull('used_at').delete();
    await trx('team_invitations')
      .where({ id: inv.id })
      .update({ status: 'accepted', accepted_user_id: userId, accepted_at: trx.fn.now(), updated_at: trx.fn.now() });
    return { userId, inv };
  });
  if (result === undefined) return { ok: false, reason: 'invalid_link' };
  if (result === null) return { ok: false, reason: 'not_acceptable', view };
  await deps.outbox.signal(invitationWorkflowId(result.inv.id, result.inv.send_count), invitationClosedSignal);
  return { ok: true, teamName: result.inv.team_name, email: result.inv.email, userId: result.userId };
}
