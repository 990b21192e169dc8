import type { ServiceDeps } from '../deps';
import { sha256Hex } from '../../core/crypto';
import { scopesForRole, type Plan, type Role } from '../../core/scopes';
import { unauthorized } from '../../core/errors';
import type { Principal } from '../../core/principal';
import { cachePrincipal, getCachedPrincipal } from './cache';

export const SESSION_PREFIX = 'svc_us_';
export const SESSION_PER_MINUTE = 1000;

/** Resolve a dashboard session token (`svc_us_…`). Expired sessions get 401 token_expired. */
export async function resolveSession(deps: Pick<ServiceDeps, 'db'>, { token }: { token: string }): Promise<Principal | null> {
  const { db } = deps;
  const hash = sha256Hex(token);
  const cached = getCachedPrincipal(hash);
  if (cached) return cached;
  const row = await db('sessions as s')
    .join('users as u', 'u.id', 's.user_id')
    .join('teams as t', 't.id', 'u.team_id')
    .where({ 's.token_hash': hash })
    .whereNull('u.removed_at')
    .first('s.id', 's.expires_at', 's.last_used_at', 'u.id as user_id', 'u.team_id', 'u.role', 'u.is_staff', 't.plan');
  if (!row) return null;
  if (new Date(row.expires_at).getTime() <= Date.now()) {
    throw unauthorized('The session has expired; sign in again', 'token_expired');
  }
  const principal: Principal = {
    kind: 'session',
    credentialId: row.id,
    teamId: row.team_id,
    userId: row.user_id,
    role: row.role as Role,
    scopes: new Set(scopesForRole(row.role)),
    plan: row.plan as Plan,
    isStaff: row.is_staff,
    perMinuteLimit: SESSION_PER_MINUTE,
  };
  // "Last used" for the user's list of sessions: written at most once a minute, on a cache miss.
  if (!row.last_used_at || Date.now() - new Date(row.last_used_at).getTime() > 60_000) {
    await db('sessions').where({ id: row.id }).update({ last_used_at: db.fn.now() });
  }
  cachePrincipal(hash, principal, new Date(row.expires_at).getTime());
  return principal;
}
