import type { Config } from '../../core/config';
import {
  googleCalendarApi,
  GoogleGrantError,
  googleToken,
  GoogleUnauthorizedError,
  type GoogleCalendarApi,
  type GoogleClient,
  type GoogleUrls,
} from '../../core/calendars/google-api';
import type { Db } from '../../db/knex';
import { calendarSecretBox, openCredentials, sealCredentials } from './secrets';

/**
 * A Google connection's tokens (docs/calendars.md "Google Calendar"), sealed in the connection's
 * `credentials_enc` like a CalDAV password (the connection id bound as associated data). An access
 * token within a minute of expiring is refreshed under the row's lock; Google's answer may carry a
 * new refresh token, which is stored at once. Activities only: tokens never enter a workflow's history.
 */
export type GoogleConfig = Pick<
  Config,
  | 'GOOGLE_CLIENT_ID'
  | 'GOOGLE_CLIENT_SECRET'
  | 'GOOGLE_OAUTH_AUTHORIZE_URL'
  | 'GOOGLE_OAUTH_TOKEN_URL'
  | 'GOOGLE_OAUTH_REVOKE_URL'
  | 'GOOGLE_CALENDAR_API_URL'
  | 'CALENDAR_CREDENTIALS_KEY'
  | 'NODE_ENV'
  | 'dataDir'
>;

export interface GoogleTokens {
  refreshToken: string;
  accessToken: string;
  accessExpiresAt: number;
}

export const googleConfigured = (c: Pick<Config, 'GOOGLE_CLIENT_ID' | 'GOOGLE_CLIENT_SECRET'>) =>
  !!(c.GOOGLE_CLIENT_ID && c.GOOGLE_CLIENT_SECRET);
export const googleUrls = (c: GoogleConfig): GoogleUrls => ({
  authorizeUrl: c.GOOGLE_OAUTH_AUTHORIZE_URL,
  tokenUrl: c.GOOGLE_OAUTH_TOKEN_URL,
  revokeUrl: c.GOOGLE_OAUTH_REVOKE_URL,
  apiUrl: c.GOOGLE_CALENDAR_API_URL,
});
export const googleClient = (c: GoogleConfig): GoogleClient => ({ id: c.GOOGLE_CLIENT_ID ?? '', secret: c.GOOGLE_CLIENT_SECRET ?? '' });

export function sealGoogleTokens(config: GoogleConfig, connectionId: string, t: GoogleTokens): string {
  return sealCredentials(calendarSecretBox(config), connectionId, { kind: 'google', ...t });
}

export function openGoogleTokens(config: GoogleConfig, connectionId: string, sealed: string): GoogleTokens {
  const c = openCredentials(calendarSecretBox(config), connectionId, sealed);
  if (c.kind !== 'google') throw new Error('not a Google connection');
  return { refreshToken: c.refreshToken, accessToken: c.accessToken, accessExpiresAt: c.accessExpiresAt };
}

const MARGIN_MS = 60_000;

/** The connection's access token: the stored one, or (forced, or about to expire) a refreshed one. Throws GoogleGrantError. */
export async function googleAccessToken(
  deps: { db: Db; config: GoogleConfig },
  input: { connectionId: string; force?: boolean },
): Promise<string> {
  const { db, config } = deps;
  return db.transaction(async (trx) => {
    const row = await trx('calendar_connections').where({ id: input.connectionId }).forUpdate().first('credentials_enc');
    if (!row) throw new GoogleGrantError('the connection is gone');
    const t = openGoogleTokens(config, input.connectionId, row.credentials_enc);
    if (!input.force && t.accessExpiresAt > Date.now() + MARGIN_MS) return t.accessToken;
    const r = await googleToken(googleUrls(config), googleClient(config), { grant_type: 'refresh_token', refresh_token: t.refreshToken });
    const next = {
      refreshToken: r.refresh_token ?? t.refreshToken,
      accessToken: r.access_token,
      accessExpiresAt: Date.now() + r.expires_in * 1000,
    };
    await trx('calendar_connections')
      .where({ id: input.connectionId })
      .update({ credentials_enc: sealGoogleTokens(config, input.connectionId, next) });
    return next.accessToken;
  });
}

/**
 * Run `fn` with the connection's access token; a 401 is met with one forced refresh and one more try.
 * A 401 that survives the refresh is thrown as GoogleUnauthorizedError (the caller marks the
 * connection needs_reauth).
 */
export async function withGoogleToken<T>(
  deps: { db: Db; config: GoogleConfig },
  input: { connectionId: string; run: (accessToken: string) => Promise<T> },
): Promise<T> {
  const { connectionId, run: fn } = input;
  const token = await googleAccessToken(deps, { connectionId });
  try {
    return await fn(token);
  } catch (err) {
    if (!(err instanceof GoogleUnauthorizedError)) throw err;
    return fn(await googleAccessToken(deps, { connectionId, force: true }));
  }
}

/** withGoogleToken with the Calendar API's read and channel calls. */
export async function withGoogleApi<T>(
  deps: { db: Db; config: GoogleConfig },
  input: { connectionId: string; run: (api: GoogleCalendarApi) => Promise<T> },
): Promise<T> {
  return withGoogleToken(deps, {
    connectionId: input.connectionId,
    run: (token) => input.run(googleCalendarApi(googleUrls(deps.config), token)),
  });
}
