import type { ServiceDeps } from '../deps';
import { sha256Hex } from '../../core/crypto';
import { withinRole, type Plan, type Role } from '../../core/scopes';
import type { Principal } from '../../core/principal';
import { cachePrincipal, getCachedPrincipal } from './cache';

export const API_KEY_PER_MINUTE = 1000;

export function isApiKey(token: string): boolean {
  return token.startsWith('sk_live_') || token.startsWith('sk_test_');
}

/**
 * Resolve an API key to a principal, or null. A key acts as the user who created it, with its
 * scopes capped by that user's role now (a demoted creator's keys lose what the new role lacks);
 * a key whose creator was removed, or is unknown, does not work (docs/accounts.md "API keys").
 */
export async function resolveApiKey(deps: Pick<ServiceDeps, 'db'>, { token }: { token: string }): Promise<Principal | null> {
  const { db } = deps;
  const hash = sha256Hex(token);
  const cached = getCachedPrincipal(hash);
  if (cached) return cached;
  const row = await db('api_keys as k')
    .join('teams as t', 't.id', 'k.team_id')
    .join('users as u', (j) => j.on('u.id', 'k.created_by').andOn('u.team_id', 'k.team_id'))
    .where({ 'k.key_hash': hash })
    .whereNull('k.revoked_at')
    .whereNull('u.removed_at')
    .first('k.id', 'k.team_id', 'k.scopes', 't.plan', 'u.id as user_id', 'u.role');
  if (!row) return null;
  const principal: Principal = {
    kind: 'api_key',
    credentialId: row.id,
    teamId: row.team_id,
    userId: row.user_id,
    role: row.role as Role,
    scopes: new Set(withinRole(row.scopes as string[], row.role)),
    plan: row.plan as Plan,
    isStaff: false,
    perMinuteLimit: API_KEY_PER_MINUTE,
  };
  cachePrincipal(hash, principal);
  return principal;
}
