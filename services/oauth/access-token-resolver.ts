import type { ServiceDeps } from '../deps';
import { sha256Hex } from '../../core/crypto';
import { withinRole, type Plan, type Role } from '../../core/scopes';
import { unauthorized } from '../../core/errors';
import type { Principal } from '../../core/principal';

export const ACCESS_TOKEN_PREFIX = 'svc_at_';

/** Requests a minute for an OAuth app: 100 while in development, 10,000 once approved. */
export const OAUTH_DEVELOPMENT_PER_MINUTE = 100;
export const OAUTH_APPROVED_PER_MINUTE = 10_000;

/**
 * Resolve an OAuth access token (`svc_at_…`) to a principal, or null when unknown or revoked.
 * Expired tokens throw 401 token_expired. The token acts as the installing user within that
 * user's team, with the granted scopes (never more than the user's role allows).
 * Not cached: a revocation or disconnect takes effect on the next request.
 */
export async function resolveAccessToken(deps: Pick<ServiceDeps, 'db'>, { token }: { token: string }): Promise<Principal | null> {
  const { db } = deps;
  const row = await db('oauth_tokens as o')
    .join('users as u', 'u.id', 'o.user_id')
    .join('teams as t', 't.id', 'u.team_id')
    .join('apps as a', 'a.id', 'o.app_id')
    .join('app_installs as i', (j) => j.on('i.app_id', 'o.app_id').andOn('i.user_id', 'o.user_id'))
    .where({ 'o.access_hash': sha256Hex(token) })
    .whereNull('o.revoked_at')
    .whereNull('i.revoked_at')
    .whereNull('u.removed_at')
    .first(
      'o.app_id',
      'o.scopes',
      'o.access_expires_at',
      'u.id as user_id',
      'u.team_id',
      'u.role',
      't.plan',
      db.raw('(a.live is not null) as approved'),
    );
  if (!row) return null;
  if (new Date(row.access_expires_at).getTime() <= Date.now()) {
    throw unauthorized('The access token has expired; use the refresh token to get a new one', 'token_expired');
  }
  return {
    kind: 'oauth',
    credentialId: `oauth:${row.app_id}:${row.user_id}`,
    teamId: row.team_id,
    userId: row.user_id,
    role: row.role as Role,
    scopes: new Set(withinRole(row.scopes as string[], row.role)),
    plan: row.plan as Plan,
    isStaff: false,
    perMinuteLimit: row.approved ? OAUTH_APPROVED_PER_MINUTE : OAUTH_DEVELOPMENT_PER_MINUTE,
    appId: row.app_id,
  };
}
