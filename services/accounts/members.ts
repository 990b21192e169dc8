import type { Executor } from '../../db/knex';
import type { ServiceDeps } from '../deps';
import type { Role } from '../../core/scopes';
import type { Principal } from '../../core/principal';
import { ApiError, conflict, notFound } from '../../core/errors';
import { presentUser, USER_COLUMNS, type UserRow } from './users';
import { deleteUserSessions, evictAll } from './revoke';
import { closeFeed } from '../meetings/close-feed';

const forbidden = (message: string) => new ApiError(403, 'forbidden', message);

/** The acting user's role, read again (the session's, token's or API key creator's user). */
export async function actingRole(trx: Executor, principal: Principal): Promise<Role | undefined> {
  const row = await trx('users').where({ id: principal.userId, team_id: principal.teamId }).whereNull('removed_at').first('role');
  return row?.role as Role | undefined;
}

async function activeMember(db: Executor, teamId: string, userId: string, forUpdate = false): Promise<UserRow> {
  const q = db('users')
    .where({ id: userId, team_id: teamId })
    .whereNull('removed_at')
    .first(...USER_COLUMNS);
  if (forUpdate) q.forUpdate();
  const user = await q;
  if (!user) throw notFound('Team member');
  return user;
}

/** Locks the team's owners (so two owners cannot demote each other at once) and counts them. */
async function lockOwners(trx: Executor, teamId: string): Promise<number> {
  const rows = await trx('users').where({ team_id: teamId, role: 'owner' }).whereNull('removed_at').forUpdate().select('id');
  return rows.length;
}

/** Only an owner grants the owner role, or changes or removes an owner. */
async function checkOwnerRule(trx: Executor, principal: Principal, touchesOwner: boolean): Promise<void> {
  if (touchesOwner && (await actingRole(trx, principal)) !== 'owner') {
    throw forbidden('Only an owner can grant the owner role or change or remove an owner');
  }
}

export async function getMember(deps: Pick<ServiceDeps, 'db'>, { teamId, userId }: { teamId: string; userId: string }) {
  return presentUser(await activeMember(deps.db, teamId, userId));
}

export interface ChangeRoleInput {
  principal: Principal;
  userId: string;
  role: Role;
}

export async function changeRole(deps: Pick<ServiceDeps, 'db'>, { principal, userId, role }: ChangeRoleInput) {
  const { db } = deps;
  let sessionIds: string[] = [];
  const user = await db.transaction(async (trx) => {
    const owners = await lockOwners(trx, principal.teamId);
    const target = await activeMember(trx, principal.teamId, userId, true);
    if (target.role === role) return target;
    await checkOwnerRule(trx, principal, target.role === 'owner' || role === 'owner');
    if (target.role === 'owner' && owners <= 1)
      throw conflict('The last owner of a team cannot be demoted; make another member owner first');
    const [updated] = await trx('users').where({ id: userId }).update({ role, updated_at: trx.fn.now() }).returning(USER_COLUMNS);
    const sessions: Array<{ id: string }> = await trx('sessions').where({ user_id: userId }).select('id');
    const keys: Array<{ id: string }> = await trx('api_keys').where({ created_by: userId }).select('id');
    sessionIds = [...sessions, ...keys].map((s) => s.id);
    return updated;
  });
  // Scopes of a session, and of the user's keys, follow the role: drop cached principals so the change applies at once.
  evictAll(sessionIds);
  return presentUser(user);
}

/** What a removed member leaves behind for the dashboard to reassign. */
async function hostingReport(db: Executor, teamId: string, userId: string) {
  const meetings = await db('meetings as m')
    .where('m.team_id', teamId)
    .whereIn('m.status', ['pending_confirmation', 'scheduled'])
    .where('m.end_time', '>', db.fn.now())
    .where((q) =>
      q
        .where('m.host_user_id', userId)
        .orWhereExists(db('meeting_hosts as h').whereRaw('h.meeting_id = m.id').where({ 'h.host_user_id': userId, 'h.active': true })),
    )
    .orderBy('m.start_time')
    .select('m.id', 'm.title', 'm.status', 'm.start_time', 'm.end_time', 'm.scheduling_page_id');
  const pages = await db('scheduling_page_hosts as h')
    .join('scheduling_pages as p', 'p.id', 'h.page_id')
    .where({ 'h.user_id': userId, 'p.team_id': teamId })
    .orderBy('p.title')
    .select(
      'p.id',
      'p.title',
      'p.slug',
      'p.status',
      db.raw('(select count(*)::int from scheduling_page_hosts o where o.page_id = p.id and o.user_id <> ?) as other_hosts', [userId]),
    );
  return { meetings, pages };
}

/**
 * Remove a member: the user row stays (meetings and pages reference it) with `removed_at`; the
 * password is cleared, every session and OAuth token of the user and every API key they created
 * are revoked. Answers what they still host (upcoming meetings, scheduling pages), unchanged.
 */
export async function removeMember(deps: Pick<ServiceDeps, 'db'>, { principal, userId }: { principal: Principal; userId: string }) {
  const { db } = deps;
  const { report, revokedIds } = await db.transaction(async (trx) => {
    const owners = await lockOwners(trx, principal.teamId);
    const target = await activeMember(trx, principal.teamId, userId, true);
    if (target.id === principal.userId) throw conflict('You cannot remove yourself');
    await checkOwnerRule(trx, principal, target.role === 'owner');
    if (target.role === 'owner' && owners <= 1) throw conflict('The last owner of a team cannot be removed');
    const [removed] = await trx('users')
      .where({ id: userId })
      .update({ removed_at: trx.fn.now(), password_hash: null, updated_at: trx.fn.now() })
      .returning('removed_at');
    const sessions = await deleteUserSessions(trx, { userId });
    const keys: Array<{ id: string }> = await trx('api_keys')
      .where({ team_id: principal.teamId, created_by: userId })
      .whereNull('revoked_at')
      .update({ revoked_at: trx.fn.now(), updated_at: trx.fn.now() })
      .returning('id');
    const tokens = await trx('oauth_tokens').where({ user_id: userId }).whereNull('revoked_at').update({ revoked_at: trx.fn.now() });
    await trx('account_tokens').where({ user_id: userId }).whereNull('used_at').delete();
    await closeFeed(trx, { teamId: principal.teamId, userId });
    // Their Google and Microsoft connections go as a disconnect does (docs/calendars.md "Google Calendar",
    // "Microsoft 365"): marked here, then each one's sync workflow stops its channels or subscriptions,
    // revokes the token (Google) and deletes it.
    await trx('calendar_connections')
      .where({ user_id: userId })
      .whereIn('kind', ['google', 'microsoft'])
      .whereNot({ status: 'disconnecting' })
      .update({ status: 'disconnecting', status_message: null, updated_at: trx.fn.now() });
    const { meetings, pages } = await hostingReport(trx, principal.teamId, userId);
    const report = {
      user_id: userId,
      removed_at: removed.removed_at as Date,
      revoked: { sessions: sessions.length, api_keys: keys.map((k) => k.id), oauth_tokens: tokens },
      upcoming_meetings: meetings.map((m: Record<string, unknown>) => ({
        id: m.id,
        title: m.title,
        status: m.status,
        start_time: m.start_time,
        end_time: m.end_time,
        scheduling_page_id: m.scheduling_page_id,
      })),
      scheduling_pages: pages.map((p: Record<string, unknown>) => ({
        id: p.id,
        title: p.title,
        slug: p.slug,
        status: p.status,
        other_hosts: p.other_hosts,
      })),
    };
    return { report, revokedIds: [...sessions, ...keys.map((k) => k.id)] };
  });
  evictAll(revokedIds);
  return report;
}
