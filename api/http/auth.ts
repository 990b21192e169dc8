import type { Context } from 'koa';
import type { Db } from '../../db/knex';
import { ACCESS_TOKEN_PREFIX, resolveAccessToken } from '../../services/oauth/access-token-resolver';
import { isApiKey, resolveApiKey } from '../../services/credentials/api-key';
import { resolveSession, SESSION_PREFIX } from '../../services/credentials/session';
import { unauthorized } from '../../core/errors';
import type { Principal } from '../../core/principal';

/** The credential sent with `Authorization: Bearer …` or `X-API-Key`, if any. */
export function readCredential(ctx: Context): string | null {
  const header = ctx.get('authorization');
  if (header) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!m) throw unauthorized('The Authorization header must be "Bearer <token>"');
    return m[1];
  }
  const key = ctx.get('x-api-key');
  return key ? key.trim() : null;
}

/** Resolve a credential to a principal, or throw 401 invalid_token. */
export async function authenticate(db: Db, token: string | null): Promise<Principal> {
  if (!token) throw unauthorized('Missing credential: send "Authorization: Bearer <key>" or "X-API-Key"');
  if (token.length > 512) throw unauthorized();
  let principal: Principal | null = null;
  if (isApiKey(token)) principal = await resolveApiKey({ db }, { token });
  else if (token.startsWith(SESSION_PREFIX)) principal = await resolveSession({ db }, { token });
  else if (token.startsWith(ACCESS_TOKEN_PREFIX)) principal = await resolveAccessToken({ db }, { token });
  if (!principal) throw unauthorized();
  return principal;
}
