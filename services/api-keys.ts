import type { ApiKeysRow } from '../db/tables';
import type { ServiceDeps } from './deps';
import { randomToken, sha256Hex } from '../core/crypto';
import type { Scope } from '../core/scopes';
import { evictCredential } from './credentials/cache';
import { notFound } from '../core/errors';

const COLUMNS = ['id', 'team_id', 'name', 'prefix', 'scopes', 'last_used_at', 'revoked_at', 'created_at', 'updated_at'] as const;

/** A key as the API shows it (never its hash). */
export type ApiKeyRow = Pick<ApiKeysRow, (typeof COLUMNS)[number]>;

export function presentApiKey(k: ApiKeyRow) {
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    scopes: k.scopes,
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
  createdBy?: string | null;
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
      created_by: input.createdBy ?? null,
    })
    .returning(COLUMNS);
  return { key, secret };
}

export async function listApiKeys(deps: Pick<ServiceDeps, 'db'>, { teamId }: { teamId: string }) {
  const { db } = deps;
  return db('api_keys')
    .where({ team_id: teamId })
    .select(...COLUMNS)
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ]);
}

export async function getApiKey(deps: Pick<ServiceDeps, 'db'>, { teamId, id }: { teamId: string; id: string }): Promise<ApiKeyRow> {
  const { db } = deps;
  const key = await db('api_keys')
    .where({ id, team_id: teamId })
    .first(...COLUMNS);
  if (!key) throw notFound('API key');
  return key;
}

export async function revokeApiKey(deps: Pick<ServiceDeps, 'db'>, { teamId, id }: { teamId: string; id: string }): Promise<void> {
  const { db } = deps;
  const n = await db('api_keys')
    .where({ id, team_id: teamId })
    .whereNull('revoked_at')
    .update({ revoked_at: db.fn.now(), updated_at: db.fn.now() });
  if (n === 0) await getApiKey(deps, { teamId, id }); // 404 when it is not ours; revoking twice is a no-op
  evictCredential(id);
}

/** A new secret for the same key record; the old secret stops working at once. */
export async function regenerateApiKey(
  deps: Pick<ServiceDeps, 'db'>,
  { teamId, id }: { teamId: string; id: string },
): Promise<{ key: ApiKeyRow; secret: string }> {
  const { db } = deps;
  const existing = await getApiKey(deps, { teamId, id });
  if (existing.revoked_at) throw notFound('API key');
  const secret = newSecret(existing.prefix.startsWith('sk_live_') ? 'live' : 'test');
  const [key] = await db('api_keys')
    .where({ id, team_id: teamId })
    .update({ key_hash: sha256Hex(secret), prefix: secret.slice(0, 12), updated_at: db.fn.now() })
    .returning(COLUMNS);
  evictCredential(id);
  return { key, secret };
}
