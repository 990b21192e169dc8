import { CalendarGrantError, CalendarUnauthorizedError } from '../../core/calendars/provider-http';
import type { Config } from '../../core/config';
import type { Db } from '../../db/knex';
import type { OAuthProvider } from './oauth-connect';
import { calendarSecretBox, openCredentials, sealCredentials } from './secrets';

/**
 * An OAuth connection's tokens, whatever the provider (docs/calendars.md "Google Calendar",
 * "Microsoft 365"), sealed in the connection's `credentials_enc` like a CalDAV password (the connection
 * id bound as associated data). An access token within a minute of expiring is refreshed under the
 * row's lock; a new refresh token in the answer (Microsoft rotates it at every refresh) is stored at
 * once, in the same transaction. Activities only: tokens never enter a workflow's history.
 */
export type TokenConfig = Pick<Config, 'CALENDAR_CREDENTIALS_KEY' | 'NODE_ENV' | 'dataDir'>;

export interface OAuthTokens {
  refreshToken: string;
  accessToken: string;
  accessExpiresAt: number;
}

export function sealOAuthTokens(config: TokenConfig, kind: OAuthProvider, connectionId: string, t: OAuthTokens): string {
  return sealCredentials(calendarSecretBox(config), connectionId, { kind, ...t });
}

export function openOAuthTokens(config: TokenConfig, kind: OAuthProvider, connectionId: string, sealed: string): OAuthTokens {
  const c = openCredentials(calendarSecretBox(config), connectionId, sealed);
  if (c.kind !== kind) throw new Error(`not a ${kind} connection`);
  return { refreshToken: c.refreshToken, accessToken: c.accessToken, accessExpiresAt: c.accessExpiresAt };
}

const MARGIN_MS = 60_000;

/** The provider's refresh: the token endpoint's answer to `grant_type=refresh_token`. */
export type Refresh = (refreshToken: string) => Promise<{ access_token: string; expires_in: number; refresh_token?: string }>;

/** The connection's access token: the stored one, or (forced, or about to expire) a refreshed one. Throws CalendarGrantError. */
export async function oauthAccessToken(
  deps: { db: Db; config: TokenConfig },
  input: { connectionId: string; kind: OAuthProvider; refresh: Refresh; force?: boolean },
): Promise<string> {
  const { db, config } = deps;
  const { connectionId, kind } = input;
  return db.transaction(async (trx) => {
    const row = await trx('calendar_connections').where({ id: connectionId }).forUpdate().first('credentials_enc');
    if (!row) throw new CalendarGrantError('the connection is gone');
    const t = openOAuthTokens(config, kind, connectionId, row.credentials_enc);
    if (!input.force && t.accessExpiresAt > Date.now() + MARGIN_MS) return t.accessToken;
    const r = await input.refresh(t.refreshToken);
    const next = {
      refreshToken: r.refresh_token ?? t.refreshToken,
      accessToken: r.access_token,
      accessExpiresAt: Date.now() + r.expires_in * 1000,
    };
    await trx('calendar_connections')
      .where({ id: connectionId })
      .update({ credentials_enc: sealOAuthTokens(config, kind, connectionId, next) });
    return next.accessToken;
  });
}

/**
 * Run `fn` with an access token; a 401 is met with one forced refresh and one more try. A 401 that
 * survives the refresh is thrown (CalendarUnauthorizedError: the caller marks the connection needs_reauth).
 */
export async function withAccessToken<T>(token: (force: boolean) => Promise<string>, fn: (accessToken: string) => Promise<T>): Promise<T> {
  const first = await token(false);
  try {
    return await fn(first);
  } catch (err) {
    if (!(err instanceof CalendarUnauthorizedError)) throw err;
    return fn(await token(true));
  }
}
