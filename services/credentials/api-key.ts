import type { ServiceDeps } from '../deps';
import { sha256Hex } from '../../core/crypto';
import type { Plan, Scope } from '../../core/scopes';
import type { Principal } from '../../core/principal';
import { cachePrincipal, getCachedPrincipal } from './cache';

export const API_KEY_PER_MINUTE = 1000;

export function isApiKey(token: string): boolean {
  return token.startsWith('sk_live_') || token.startsWith('sk_test_');
}

export async function resolveApiKey(deps: Pick<ServiceDeps, 'db'>, { token }: { token: string }): Promise<Principal | null> {
  const { db } = deps;
  const hash = sha256Hex(token);
  const cached = getCachedPrincipal(hash);
  if (cached) return cached;
  const row = await db('api_keys as k')
    .join('teams as t', 't.id', 'k.team_id')
    .where({ 'k.key_hash': hash })
    .whereNull('k.revoked_at')
    .first(
      'k.id',
      'k.team_id',
      'k.scopes',
      't.plan',
      db.raw(
        `(select u.id from users u where u.team_id = k.team_id and u.removed_at is null order by (u.role = 'owner') desc, u.created_at asc limit 1) as owner_id`,
      ),
    );
  if (!row || !row.owner_id) return null;
  const principal: Principal = {
    kind: 'api_key',
    credentialId: row.id,
    teamId: row.team_id,
    userId: row.owner_id,
    scopes: new Set(row.scopes as Scope[]),
    plan: row.plan as Plan,
    isStaff: false,
    perMinuteLimit: API_KEY_PER_MINUTE,
  };
  cachePrincipal(hash, principal);
  return principal;
}
