import OAuth2Server from '@node-oauth/oauth2-server';
import type { Context } from 'koa';
import { logger } from '../../../core/logger';
import type { Db } from '../../../db/knex';
import { ACCESS_TOKEN_TTL_S, oauthServer } from '../../../services/oauth/server';
import { revokeToken } from '../../../services/oauth/revoke';

/** The OAuth endpoints' HTTP side: the library's Koa adapters, RFC 6749 error bodies, client credentials. */

/** Koa context (+ the parsed body) → the library's Request. */
export function toOAuthRequest(ctx: Context, body: Record<string, unknown>): OAuth2Server.Request {
  return new OAuth2Server.Request({
    method: ctx.method,
    query: { ...(ctx.query as Record<string, string>) },
    headers: { ...(ctx.headers as Record<string, string>) },
    body,
  });
}

/** An RFC 6749 §5.2 error body. */
export function writeOAuthError(
  ctx: Context,
  status: number,
  error: string,
  description: string,
  headers: Record<string, string> = {},
): void {
  ctx.status = status;
  ctx.set({ 'Cache-Control': 'no-store', Pragma: 'no-cache', ...headers });
  ctx.body = { error, error_description: description };
}

/** Turn a library error into the RFC 6749 response. Internal failures are logged and never described. */
export function writeLibraryError(ctx: Context, err: unknown, response?: OAuth2Server.Response): void {
  if (!(err instanceof OAuth2Server.OAuthError) || err.name === 'server_error') {
    logger.error(
      { err: err instanceof OAuth2Server.OAuthError ? ((err as { inner?: unknown }).inner ?? err) : err },
      'oauth request failed',
    );
    writeOAuthError(ctx, 500, 'server_error', 'Something went wrong on our side; it has been logged');
    return;
  }
  const auth = response?.get('www-authenticate');
  writeOAuthError(ctx, err.code, err.name, err.message, auth ? { 'WWW-Authenticate': auth } : {});
}

/** POST /api/oauth/token through the library: authorization_code (PKCE S256) and refresh_token. */
export async function handleTokenRequest(ctx: Context, db: Db, body: Record<string, unknown>): Promise<void> {
  const request = toOAuthRequest(ctx, body);
  const response = new OAuth2Server.Response();
  try {
    await oauthServer(db).token(request, response);
  } catch (err) {
    writeLibraryError(ctx, err, response);
    return;
  }
  ctx.status = 200;
  ctx.set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' });
  // The library derives expires_in from the expiry time (3599 after a millisecond); the lifetime is exactly 1 h.
  ctx.body = { ...response.body, expires_in: ACCESS_TOKEN_TTL_S };
}

/** Client credentials from HTTP Basic (RFC 6749 §2.3.1, form-encoded parts) or the body. */
export function clientCredentials(ctx: Context, body: Record<string, unknown>): { clientId?: string; clientSecret?: string } {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(ctx.get('authorization'));
  if (m) {
    const decoded = Buffer.from(m[1], 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    if (i >= 0) {
      try {
        return { clientId: decodeURIComponent(decoded.slice(0, i)), clientSecret: decodeURIComponent(decoded.slice(i + 1)) };
      } catch {
        return {};
      }
    }
    return {};
  }
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  return { clientId: str(body.client_id), clientSecret: str(body.client_secret) };
}

/** POST /api/oauth/revoke (RFC 7009): the client authenticates; the answer is 200 whatever the token was. */
export async function handleRevokeRequest(ctx: Context, db: Db, body: Record<string, unknown>): Promise<void> {
  const { clientId, clientSecret } = clientCredentials(ctx, body);
  const outcome = await revokeToken({ db }, { clientId, clientSecret, token: body.token, hint: body.token_type_hint });
  if (outcome === 'invalid_client') {
    const basic = /^Basic /i.test(ctx.get('authorization'));
    writeOAuthError(
      ctx,
      401,
      'invalid_client',
      'Client authentication failed',
      basic ? { 'WWW-Authenticate': 'Basic realm="Service"' } : {},
    );
    return;
  }
  if (outcome === 'invalid_request') {
    writeOAuthError(ctx, 400, 'invalid_request', 'Missing parameter: `token`');
    return;
  }
  ctx.status = 200;
  ctx.set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' });
  ctx.body = '';
}
