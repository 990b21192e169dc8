import type { Config } from '../../core/config';
import {
  googleCalendarApi,
  googleToken,
  type GoogleCalendarApi,
  type GoogleClient,
  type GoogleUrls,
} from '../../core/calendars/google-api';
import type { Db } from '../../db/knex';
import { oauthAccessToken, openOAuthTokens, sealOAuthTokens, withAccessToken, type OAuthTokens } from './oauth-tokens';

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

export type GoogleTokens = OAuthTokens;

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
  return sealOAuthTokens(config, 'google', connectionId, t);
}

export function openGoogleTokens(config: GoogleConfig, connectionId: string, sealed: string): GoogleTokens {
  return openOAuthTokens(config, 'google', connectionId, sealed);
}

/** The connection's access token: the stored one, or (forced, or about to expire) a refreshed one. Throws GoogleGrantError. */
export async function googleAccessToken(
  deps: { db: Db; config: GoogleConfig },
  input: { connectionId: string; force?: boolean },
): Promise<string> {
  const { config } = deps;
  return oauthAccessToken(deps, {
    ...input,
    kind: 'google',
    refresh: (refreshToken) =>
      googleToken(googleUrls(config), googleClient(config), { grant_type: 'refresh_token', refresh_token: refreshToken }),
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
  return withAccessToken((force) => googleAccessToken(deps, { connectionId: input.connectionId, force }), input.run);
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
