import type { ApiKeysRow } from '../db/tables';
import type { ServiceDeps } from './deps';
import { randomToken, sha256Hex } from '../core/crypto';
import { scopesForRole, type Role, type Scope } from '../core/scopes';
import { evictCredential } from './credentials/cache';
import { ApiError, notFound } from '../core/errors';

const COLUMNS = [
  'id',
  'team_id',
  'name',
  'prefix',
  'scopes',
  'created_by',
  'last_used_at',
  'revoked_at',
  'created_at',
  'updated_at',
] as const;

/** A key as the API shows it (never its hash). */
export type ApiKeyRow = Pick<ApiKeysRow, (typeof COLUMNS)[number]>;

export function presentApiKey(k: ApiKeyRow) {
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    scopes: k.scopes,
    created_by: k.created_by,
    mode: k.prefix.startsWith('sk_live_') ? 'live' : 'test',
    last_used_at: k.last_used_at,
    revoked_at: k.revoked_at,
    created_at: k.created_at,
  };
}

/** 32 random bytes (256 bits) after the prefix. Only the SHA-256 hash is stored. */
function newSecret(mode: 'live' | 'test'): string {
  return `sk_${mode}_${randomToken(32)}`;
}

export interface CreateApiKeyInput {
  teamId: string;
  scopes: Scope[];
  name?: string | null;
  mode?: 'live' | 'test';
  /** The user the key acts as (docs/accounts.md "API keys"). */
  createdBy: string;
}

/** Who is managing keys: the acting user and their role. */
export interface KeyActor {
  teamId: string;
  userId: string;
  role: Role;
}

/** Owners and admins manage every key of the team; a member only the keys it made. */
const managesAll = (actor: KeyActor) => actor.role === 'owner' || actor.role === 'admin';

/**
 * The scopes of a new key: those asked for, or by default every scope of the creator's role. A
 * scope the role lacks is 403 `insufficient_scope` naming it: a key never carries more than its maker.
 */
export function keyScopes(role: Role, asked: Scope[] | undefined): Scope[] {
  const allowed = scopesForRole(role);
  if (!asked) return allowed;
  const over = asked.find((s) => !allowed.includes(s));
  if (over) {
    throw new ApiError(
      403,
      'insufficient_scope',
      `Your role (${role}) does not allow the scope ${over}; a key cannot carry more than you`,
      [{ path: 'body.scopes', message: `${over} is not allowed for the ${role} role` }],
    );
  }
  return [...new Set(asked)];
}

export async function createApiKey(deps: Pick<ServiceDeps, 'db'>, input: CreateApiKeyInput): Promise<{ key: ApiKeyRow; secret: string }> {
  const { db } = deps;
  const secret = newSecret(input.mode ?? 'live');
  const [key] = await db('api_keys')
    .insert({
      team_id: input.teamId,
      name: input.name ?? null,
      prefix: secret.slice(0, 12),
      key_hash: sha256Hex(secret),
      scopes: input.scopes,
      created_by: input.createdBy,
    })
    .returning(COLUMNS);
  return { key, secret };
}

export async function listApiKeys(deps: Pick<ServiceDeps, 'db'>, { actor }: { actor: KeyActor }) {
  const { db } = deps;
  const q = db('api_keys').where({ team_id: actor.teamId });
  if (!managesAll(actor)) q.where({ created_by: actor.userId });
  return q.select(...COLUMNS).orderBy([
    { column: 'created_at', order: 'desc' },
    { column: 'id', order: 'desc' },
  ]);
}

/** One key the actor may see (a member's view is its own keys: anyone else's is 404). */
export async function getApiKey(deps: Pick<ServiceDeps, 'db'>, { actor, id }: { actor: KeyActor; id: string }): Promise<ApiKeyRow> {
  const { db } = deps;
  const q = db('api_keys').where({ id, team_id: actor.teamId });
  if (!managesAll(actor)) q.where({ created_by: actor.userId });
  const key = await q.first(...COLUMNS);
  if (!key) throw notFound('API key');
  return key;
}

export async function revokeApiKey(deps: Pick<ServiceDeps, 'db'>, { actor, id }: { actor: KeyActor; id: string }): Promise<void> {
  const { db } = deps;
  await getApiKey(deps, { actor, id }); // 404 when it is not the actor's to see; revoking twice is a no-op
  await db('api_keys')
    .where({ id, team_id: actor.teamId })
    .whereNull('revoked_at')
    .update({ revoked_at: db.fn.now(), updated_at: db.fn.now() });
  evictCredential(id);
}

/** Revoke a key on behalf of the system (the CLI): no actor, the team's key by id. */
export async function revokeTeamApiKey(deps: Pick<ServiceDeps, 'db'>, { teamId, id }: { teamId: string; id: string }): Promise<void> {
  const { db } = deps;
  const n = await db('api_keys').where({ id, team_id: teamId }).update({ revoked_at: db.fn.now(), updated_at: db.fn.now() });
  if (n === 0) throw notFound('API key');
  evictCredential(id);
}

/**
 * A new secret for the same key record; the old secret stops working at once. Only the key's
 * creator may: the new secret acts as its creator, so handing it to anyone else would let an admin
 * act as an owner (403 `forbidden`; revoke it instead).
 */
export async function regenerateApiKey(
  deps: Pick<ServiceDeps, 'db'>,
  { actor, id }: { actor: KeyActor; id: string },
): Promise<{ key: ApiKeyRow; secret: string }> {
  const { db } = deps;
  const teamId = actor.teamId;
  const existing = await getApiKey(deps, { actor, id });
  if (existing.revoked_at) throw notFound('API key');
  if (existing.created_by !== actor.userId) {
    throw new ApiError(403, 'forbidden', 'Only the creator of a key can regenerate it (the key acts as its creator); revoke it instead');
  }
  const secret = newSecret(existing.prefix.startsWith('sk_live_') ? 'live' : 'test');
  const [key] = await db('api_keys')
    .where({ id, team_id: teamId })
    .update({ key_hash: sha256Hex(secret), prefix: secret.slice(0, 12), updated_at: db.fn.now() })
    .returning(COLUMNS);
  evictCredential(id);
  return { key, secret };
}

/** The team's first active owner: whom a key made outside the dashboard (the CLI) acts as. */
export async function firstOwnerId(deps: Pick<ServiceDeps, 'db'>, { teamId }: { teamId: string }): Promise<string | null> {
  const row = await deps
    .db('users')
    .where({ team_id: teamId, role: 'owner' })
    .whereNull('removed_at')
    .orderBy([{ column: 'created_at' }, { column: 'id' }])
    .first('id');
  return row?.id ?? null;
}
