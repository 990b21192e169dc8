import type { TeamInvitationsRow } from '../../db/tables';
import type { ServiceDeps } from '../deps';
import type { Principal } from '../../core/principal';
import type { Role } from '../../core/scopes';
import { ApiError, conflict, notFound } from '../../core/errors';
import { transactionWithOutbox, type WorkflowStart } from '../../temporal/outbox';
import { paginate, type Page } from '../pagination';
import { actingRole } from './members';
import { INVITATION_TTL_MS, invitationClosedSignal, invitationWorkflowId } from '../../workflows/accounts/contract';
import { code, detailsMarkdown } from '../operators/metadata';

export type InvitationStatus = 'pending' | 'accepted' | 'revoked' | 'expired';

type InvitationRow = TeamInvitationsRow;

/** A pending invitation past its expiry is shown as `expired`. */
export function invitationStatus(row: Pick<InvitationRow, 'status' | 'expires_at'>, now = Date.now()): InvitationStatus {
  return row.status === 'pending' && new Date(row.expires_at).getTime() <= now ? 'expired' : row.status;
}

export function presentInvitation(row: InvitationRow) {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    status: invitationStatus(row),
    invited_by: row.invited_by,
    send_count: row.send_count,
    last_sent_at: row.last_sent_at,
    expires_at: row.expires_at,
    accepted_user_id: row.accepted_user_id,
    accepted_at: row.accepted_at,
    revoked_at: row.revoked_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

const isUniqueViolation = (err: unknown) => (err as { code?: string }).code === '23505';

async function checkMayGrant(deps: ServiceDeps, principal: Principal, role: Role): Promise<void> {
  if (role === 'owner' && (await actingRole(deps.db, principal)) !== 'owner') {
    throw new ApiError(403, 'forbidden', 'Only an owner can invite an owner');
  }
}

const start = (row: Pick<InvitationRow, 'id' | 'team_id' | 'send_count'>): WorkflowStart<'invitationWorkflow'> => ({
  workflowType: 'invitationWorkflow',
  workflowId: invitationWorkflowId(row.id, row.send_count),
  args: [{ invitationId: row.id, teamId: row.team_id, send: row.send_count }],
  searchAttributes: { TeamId: row.team_id },
  summary: `Team invitation ${row.id}, send ${row.send_count}`,
  details: detailsMarkdown('Invitation email (the invitee is named in the team, not here)', [
    ['Invitation', `${code(row.id)}: \`/api/v1/team/invitations/${row.id}\``],
    ['Team', code(row.team_id)],
  ]),
});

/**
 * Invite an address with a role: 409 when it belongs to an active member of the team (one who
 * can sign in) or has an open invitation. The email goes out from `invitationWorkflow`.
 */
export async function createInvitation(
  deps: ServiceDeps,
  { principal, values: input }: { principal: Principal; values: { email: string; role: Role } },
) {
  const { db } = deps;
  await checkMayGrant(deps, principal, input.role);
  const member = await db('users')
    .where({ team_id: principal.teamId, email: input.email })
    .whereNull('removed_at')
    .whereNotNull('password_hash')
    .first('id');
  if (member) throw conflict('This address belongs to a member of the team already');
  try {
    const row = await transactionWithOutbox(db, deps.outbox, async (trx, enqueue) => {
      await trx('team_invitations')
        .where({ team_id: principal.teamId, email: input.email, status: 'pending' })
        .where('expires_at', '<=', trx.fn.now())
        .update({ status: 'expired', updated_at: trx.fn.now() });
      const [inv] = (await trx('team_invitations')
        .insert({
          team_id: principal.teamId,
          email: input.email,
          role: input.role,
          invited_by: principal.userId,
          expires_at: new Date(Date.now() + INVITATION_TTL_MS),
        })
        .returning('*')) as InvitationRow[];
      await enqueue(start(inv));
      return inv;
    });
    return presentInvitation(row);
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('This address has an open invitation already; resend it instead');
    throw err;
  }
}

export interface ListInvitationsInput {
  teamId: string;
  page: Page;
  status?: InvitationStatus;
}

export function listInvitations(deps: Pick<ServiceDeps, 'db'>, { teamId, page, status }: ListInvitationsInput) {
  const q = deps.db('team_invitations').where({ team_id: teamId });
  if (status === 'expired') {
    q.where((w) =>
      w.where({ status: 'expired' }).orWhere((p) => p.where({ status: 'pending' }).where('expires_at', '<=', deps.db.fn.now())),
    );
  } else if (status === 'pending') {
    q.where({ status: 'pending' }).where('expires_at', '>', deps.db.fn.now());
  } else if (status) {
    q.where({ status });
  }
  return paginate(
    q,
    page,
    [
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ],
    presentInvitation,
  );
}

async function findInvitation(deps: Pick<ServiceDeps, 'db'>, teamId: string, id: string): Promise<InvitationRow> {
  const row = (await deps.db('team_invitations').where({ id, team_id: teamId }).first()) as InvitationRow | undefined;
  if (!row) throw notFound('Invitation');
  return row;
}

export async function getInvitation(deps: Pick<ServiceDeps, 'db'>, { teamId, id }: { teamId: string; id: string }) {
  return presentInvitation(await findInvitation(deps, teamId, id));
}

/**
 * Send again: a new email with a new link, and 7 more days. Works on a pending or expired
 * invitation; an accepted or revoked one gets 409. The previous send's workflow is told to stop
 * (it would find nothing to remind anyway: only the latest send reminds).
 */
export async function resendInvitation(deps: ServiceDeps, { principal, id }: { principal: Principal; id: string }) {
  const current = await findInvitation(deps, principal.teamId, id);
  await checkMayGrant(deps, principal, current.role);
  try {
    const row = await transactionWithOutbox(deps.db, deps.outbox, async (trx, enqueue) => {
      const [inv] = (await trx('team_invitations')
        .where({ id, team_id: principal.teamId })
        .whereIn('status', ['pending', 'expired'])
        .update({
          status: 'pending',
          send_count: trx.raw('send_count + 1'),
          expires_at: new Date(Date.now() + INVITATION_TTL_MS),
          last_sent_at: trx.fn.now(),
          updated_at: trx.fn.now(),
        })
        .returning('*')) as InvitationRow[];
      if (!inv) throw conflict(`The invitation is ${current.status} and cannot be sent again`, 'invalid_transition');
      await enqueue(start(inv));
      return inv;
    });
    await deps.outbox.signal(invitationWorkflowId(row.id, row.send_count - 1), invitationClosedSignal);
    return presentInvitation(row);
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('This address has another open invitation');
    throw err;
  }
}

/** Revoke a pending (or expired) invitation: its links stop working at once. */
export async function revokeInvitation(deps: ServiceDeps, { principal, id }: { principal: Principal; id: string }): Promise<void> {
  const current = await findInvitation(deps, principal.teamId, id);
  await checkMayGrant(deps, principal, current.role);
  const updated = await deps.db.transaction(async (trx) => {
    const n = await trx('team_invitations')
      .where({ id, team_id: principal.teamId })
      .whereIn('status', ['pending', 'expired'])
      .update({ status: 'revoked', revoked_at: trx.fn.now(), updated_at: trx.fn.now() });
    await trx('account_tokens').where({ invitation_id: id }).whereNull('used_at').delete();
    return n;
  });
  if (!updated) throw conflict(`The invitation is ${current.status} and cannot be revoked`, 'invalid_transition');
  await deps.outbox.signal(invitationWorkflowId(id, current.send_count), invitationClosedSignal);
}
