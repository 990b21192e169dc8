import type { AccountTokensRow } from '../../db/tables';
import type { Executor } from '../../db/knex';
import type { ServiceDeps } from '../deps';
import { randomToken, sha256Hex } from '../../core/crypto';

export type TokenKind = AccountTokensRow['kind'];

export type AccountToken = Pick<
  AccountTokensRow,
  'id' | 'kind' | 'user_id' | 'invitation_id' | 'request_id' | 'new_email' | 'expires_at' | 'used_at'
>;

/** Link tokens are 32 random bytes, base64url: 43 characters. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export interface IssueTokenInput {
  kind: TokenKind;
  userId?: string | null;
  invitationId?: string | null;
  requestId: string;
  newEmail?: string | null;
  expiresAt: Date;
}

/**
 * Issue a link token. Only its SHA-256 is stored; the raw token goes into one email and nowhere
 * else (not the outbox, not the workflow history). The activity that sends the email issues it,
 * so a retried send replaces the token of the same request instead of piling up live ones.
 */
export async function issueToken(deps: Pick<ServiceDeps, 'db'>, input: IssueTokenInput): Promise<string> {
  const { db } = deps;
  const token = randomToken(32);
  await db('account_tokens').where({ kind: input.kind, request_id: input.requestId }).whereNull('used_at').delete();
  await db('account_tokens').insert({
    kind: input.kind,
    token_hash: sha256Hex(token),
    user_id: input.userId ?? null,
    invitation_id: input.invitationId ?? null,
    request_id: input.requestId,
    new_email: input.newEmail ?? null,
    expires_at: input.expiresAt,
  });
  return token;
}

export interface FindLiveTokenInput {
  kind: TokenKind;
  token: string;
  forUpdate?: boolean;
}

/** A live token of this kind (unused, not expired), or undefined. `forUpdate` locks it for a single use. */
export async function findLiveToken(
  trx: Executor,
  { kind, token: raw, forUpdate = false }: FindLiveTokenInput,
): Promise<AccountToken | undefined> {
  if (!TOKEN_PATTERN.test(raw)) return undefined;
  const q = trx('account_tokens')
    .where({ kind, token_hash: sha256Hex(raw) })
    .whereNull('used_at')
    .where('expires_at', '>', trx.fn.now())
    .first('id', 'kind', 'user_id', 'invitation_id', 'request_id', 'new_email', 'expires_at', 'used_at');
  if (forUpdate) q.forUpdate();
  return q;
}

export async function markUsed(trx: Executor, id: string): Promise<void> {
  await trx('account_tokens').where({ id }).update({ used_at: trx.fn.now() });
}
