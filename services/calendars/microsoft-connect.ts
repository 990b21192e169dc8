import { microsoftAuthorizeUrl, microsoftToken, missingMicrosoftScopes } from '../../core/calendars/microsoft-api';
import { idTokenEmail } from '../../core/calendars/provider-http';
import { notFound } from '../../core/errors';
import { logger } from '../../core/logger';
import type { Principal } from '../../core/principal';
import type { ServiceDeps } from '../deps';
import { microsoftClient, microsoftConfigured, microsoftUrls, sealMicrosoftTokens } from './microsoft-tokens';
import { CalendarConnectError, CODE_EXCHANGE_TIMEOUT_MS, oauthState, readOAuthState, saveOAuthConnection } from './oauth-connect';

/**
 * Connecting a host's Microsoft 365 (or Outlook.com) calendar (docs/calendars.md "Microsoft 365"):
 * the identity platform's v2.0 authorization-code flow with PKCE S256, the state bound to the dashboard
 * session as Google's is (oauth-connect.ts). At the callback: the code exchange (5 s, no retry), the
 * granted scopes checked, the account's address read from the ID token (`email`, else
 * `preferred_username`); anything after (the calendars, the first sync, the subscriptions) runs in the connection's sync workflow.
 */
type Deps = Pick<ServiceDeps, 'config'>;
export const microsoftCallbackUrl = (deps: Deps) => `${deps.config.baseUrl}/api/v1/microsoft-calendar/callback`;

export function startMicrosoftConnect(deps: Deps, input: { principal: Principal }): { authorize_url: string } {
  const { config } = deps;
  if (!microsoftConfigured(config)) throw notFound('Microsoft 365 calendars are not set up (MICROSOFT_CLIENT_ID, MICROSOFT_CLIENT_SECRET)');
  const { state, codeChallenge } = oauthState(deps, { provider: 'microsoft', principal: input.principal });
  return {
    authorize_url: microsoftAuthorizeUrl(microsoftUrls(config), {
      clientId: config.MICROSOFT_CLIENT_ID!,
      redirectUri: microsoftCallbackUrl(deps),
      state,
      codeChallenge,
    }),
  };
}

/** The callback: the state and its session, the code exchanged (bounded, not retried), the tokens sealed. */
export async function completeMicrosoftConnect(
  deps: Pick<ServiceDeps, 'db' | 'config' | 'outbox'>,
  input: { code: string; state: string },
): Promise<{ accountEmail: string; connectionId: string }> {
  const { config } = deps;
  if (!microsoftConfigured(config)) throw new CalendarConnectError('Microsoft 365 calendars are not set up on this server.');
  const who = await readOAuthState(deps, { provider: 'microsoft', state: input.state });
  let t;
  try {
    t = await microsoftToken(
      microsoftUrls(config),
      microsoftClient(config),
      { grant_type: 'authorization_code', code: input.code, code_verifier: who.verifier, redirect_uri: microsoftCallbackUrl(deps) },
      CODE_EXCHANGE_TIMEOUT_MS,
    );
  } catch (err) {
    logger.warn({ userId: who.userId, error: String(err) }, 'Microsoft 365 connect: the code exchange failed');
    throw new CalendarConnectError('Microsoft did not accept the connection (or did not answer in time). Start again from the dashboard.');
  }
  if (missingMicrosoftScopes(t.scope).length)
    throw new CalendarConnectError(
      'Microsoft 365 was connected without the permission it needs (your calendars). Start again and accept every permission.',
    );
  if (!t.refresh_token) throw new CalendarConnectError('Microsoft answered without a refresh token. Start again from the dashboard.');
  const email = idTokenEmail(t.id_token, ['email', 'preferred_username']);
  if (!email) throw new CalendarConnectError('Microsoft did not say which account was connected. Start again from the dashboard.');
  const tokens = { refreshToken: t.refresh_token, accessToken: t.access_token, accessExpiresAt: Date.now() + t.expires_in * 1000 };
  const { connectionId } = await saveOAuthConnection(deps, {
    who,
    kind: 'microsoft',
    email,
    name: `Microsoft 365 (${email})`,
    displayUrl: 'https://outlook.office.com/calendar/',
    seal: (id) => sealMicrosoftTokens(config, id, tokens),
  });
  return { accountEmail: email, connectionId };
}
