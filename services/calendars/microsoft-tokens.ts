import type { Config } from '../../core/config';
import { microsoftGraphApi, microsoftToken, type MicrosoftGraphApi, type MicrosoftUrls } from '../../core/calendars/microsoft-api';
import type { OAuthClient } from '../../core/calendars/provider-http';
import type { Db } from '../../db/knex';
import { oauthAccessToken, openOAuthTokens, sealOAuthTokens, withAccessToken, type OAuthTokens } from './oauth-tokens';

/**
 * A Microsoft connection's tokens (docs/calendars.md "Microsoft 365"), sealed like Google's
 * (oauth-tokens.ts). The identity platform rotates the refresh token: every refresh answers a new one,
 * stored in the refresh's transaction, under the row's lock, so two refreshes never race. Activities only.
 */
export type MicrosoftConfig = Pick<
  Config,
  | 'MICROSOFT_CLIENT_ID'
  | 'MICROSOFT_CLIENT_SECRET'
  | 'MICROSOFT_OAUTH_AUTHORIZE_URL'
  | 'MICROSOFT_OAUTH_TOKEN_URL'
  | 'MICROSOFT_GRAPH_URL'
  | 'CALENDAR_CREDENTIALS_KEY'
  | 'NODE_ENV'
  | 'dataDir'
>;

export const microsoftConfigured = (c: Pick<Config, 'MICROSOFT_CLIENT_ID' | 'MICROSOFT_CLIENT_SECRET'>) =>
  !!(c.MICROSOFT_CLIENT_ID && c.MICROSOFT_CLIENT_SECRET);
export const microsoftUrls = (c: MicrosoftConfig): MicrosoftUrls => ({
  authorizeUrl: c.MICROSOFT_OAUTH_AUTHORIZE_URL,
  tokenUrl: c.MICROSOFT_OAUTH_TOKEN_URL,
  graphUrl: c.MICROSOFT_GRAPH_URL,
});
export const microsoftClient = (c: MicrosoftConfig): OAuthClient => ({
  id: c.MICROSOFT_CLIENT_ID ?? '',
  secret: c.MICROSOFT_CLIENT_SECRET ?? '',
});

export const sealMicrosoftTokens = (config: MicrosoftConfig, connectionId: string, t: OAuthTokens) =>
  sealOAuthTokens(config, 'microsoft', connectionId, t);
export const openMicrosoftTokens = (config: MicrosoftConfig, connectionId: string, sealed: string) =>
  openOAuthTokens(config, 'microsoft', connectionId, sealed);

/** The connection's access token, refreshed (and the rotated refresh token stored) when due. Throws CalendarGrantError. */
export function microsoftAccessToken(deps: { db: Db; config: MicrosoftConfig }, input: { connectionId: string; force?: boolean }) {
  const { config } = deps;
  return oauthAccessToken(deps, {
    ...input,
    kind: 'microsoft',
    refresh: (refreshToken) =>
      microsoftToken(microsoftUrls(config), microsoftClient(config), { grant_type: 'refresh_token', refresh_token: refreshToken }),
  });
}

/** Run `fn` with Graph; a 401 is met with one forced refresh and one more try, then thrown (needs_reauth). */
export function withMicrosoftApi<T>(
  deps: { db: Db; config: MicrosoftConfig },
  input: { connectionId: string; run: (api: MicrosoftGraphApi, accessToken: string) => Promise<T> },
): Promise<T> {
  return withAccessToken(
    (force) => microsoftAccessToken(deps, { connectionId: input.connectionId, force }),
    (token) => input.run(microsoftGraphApi(microsoftUrls(deps.config), token), token),
  );
}
