import { sha256Hex } from '../../core/crypto';
import type { ServiceDeps } from '../deps';
import { createModel, revokeFamilies, type OAuthClient } from './model';

export interface RevokeTokenInput {
  clientId?: string;
  clientSecret?: string;
  /** The token and its `token_type_hint`, as the client sent them. */
  token: unknown;
  hint: unknown;
}

/**
 * RFC 7009 token revocation. The client authenticates; an unknown token, or one of another
 * client, still succeeds (nothing is revealed). A refresh token revokes its whole family;
 * an access token revokes its own issuance (and the refresh token issued with it).
 */
export async function revokeToken(
  deps: Pick<ServiceDeps, 'db'>,
  input: RevokeTokenInput,
): Promise<'revoked' | 'invalid_client' | 'invalid_request'> {
  const { db } = deps;
  const { clientId, clientSecret, token, hint } = input;
  const client = clientId && clientSecret ? ((await createModel(db).getClient(clientId, clientSecret)) as OAuthClient | false) : false;
  if (!client) return 'invalid_client';
  if (typeof token !== 'string' || token.length === 0 || token.length > 512) return 'invalid_request';
  const hash = sha256Hex(token);
  const order = hint === 'access_token' ? ['access_hash', 'refresh_hash'] : ['refresh_hash', 'access_hash'];
  for (const column of order) {
    const row = await db('oauth_tokens')
      .where({ [column]: hash, app_id: client.id })
      .first('id');
    if (!row) continue;
    if (column === 'refresh_hash') await revokeFamilies(db, { id: row.id });
    else await db('oauth_tokens').where({ id: row.id }).whereNull('revoked_at').update({ revoked_at: db.fn.now() });
    break;
  }
  return 'revoked';
}

export interface DisconnectAppInput {
  userId: string;
  teamId: string;
  appId: string;
}

/** Disconnect: the install is revoked and every token of the app for this user stops working. */
export async function disconnectApp(deps: Pick<ServiceDeps, 'db'>, { userId, teamId, appId }: DisconnectAppInput): Promise<boolean> {
  const { db } = deps;
  const n = await db('app_installs')
    .where({ app_id: appId, user_id: userId, team_id: teamId })
    .whereNull('revoked_at')
    .update({ revoked_at: db.fn.now(), updated_at: db.fn.now() });
  if (!n) return false;
  await db('oauth_tokens').where({ app_id: appId, user_id: userId }).whereNull('revoked_at').update({ revoked_at: db.fn.now() });
  return true;
}
