import { notFound } from '../../core/errors';
import { logger } from '../../core/logger';
import type { Principal } from '../../core/principal';
import { googleAuthorizeUrl, googleToken, missingScopes } from '../../core/calendars/google-api';
import { idTokenEmail } from '../../core/calendars/provider-http';
import type { ServiceDeps } from '../deps';
import { googleClient, googleConfigured, googleUrls, sealGoogleTokens } from './google-tokens';
import { CalendarConnectError, CODE_EXCHANGE_TIMEOUT_MS, oauthState, readOAuthState, saveOAuthConnection } from './oauth-connect';

/**
 * Connecting a host's Google Calendar (docs/calendars.md "Google Calendar"): OAuth 2.0 for web server
 * applications with PKCE (the state and the saving are shared with Microsoft: oauth-connect.ts). `state` names the dashboard session that started it (and its user and team),
 * expires after ten minutes and is signed with a key derived from the at-rest key; the PKCE verifier
 * is derived from the state under the same key, so nothing is stored between the two requests. The
 * callback (a browser redirect, without the dashboard's bearer token) checks that the session is still
 * live. The code exchange is the one inline call: 5 s, no retry. Everything after it (the calendar
 * list, the first sync, the push channels) runs in the connection's sync workflow.
 */
type Deps = Pick<ServiceDeps, 'config'>;
export const googleCallbackUrl = (deps: Deps) => `${deps.config.baseUrl}/api/v1/google-calendar/callback`;

export function startGoogleConnect(deps: Deps, input: { principal: Principal }): { authorize_url: string } {
  const { config } = deps;
  if (!googleConfigured(config)) throw notFound('Google Calendar is not set up (GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET)');
  const { state, codeChallenge } = oauthState(deps, { provider: 'google', principal: input.principal });
  return {
    authorize_url: googleAuthorizeUrl(googleUrls(config), {
      clientId: config.GOOGLE_CLIENT_ID!,
      redirectUri: googleCallbackUrl(deps),
      state,
      codeChallenge,
    }),
  };
}

/** The callback: check the state and its session, exchange the code (bounded, not retried), keep the tokens sealed. */
export async function completeGoogleConnect(
  deps: Pick<ServiceDeps, 'db' | 'config' | 'outbox'>,
  input: { code: string; state: string },
): Promise<{ accountEmail: string; connectionId: string }> {
  const { config } = deps;
  if (!googleConfigured(config)) throw new CalendarConnectError('Google Calendar is not set up on this server.');
  const who = await readOAuthState(deps, { provider: 'google', state: input.state });
  let t;
  try {
    t = await googleToken(
      googleUrls(config),
      googleClient(config),
      { grant_type: 'authorization_code', code: input.code, code_verifier: who.verifier, redirect_uri: googleCallbackUrl(deps) },
      CODE_EXCHANGE_TIMEOUT_MS,
    );
  } catch (err) {
    logger.warn({ userId: who.userId, error: String(err) }, 'Google Calendar connect: the code exchange failed');
    throw new CalendarConnectError('Google did not accept the connection (or did not answer in time). Start again from the dashboard.');
  }
  const missing = missingScopes(t.scope);
  if (missing.length)
    throw new CalendarConnectError(
      'Google Calendar was connected without the permissions it needs (the calendar list and events). Start again and leave every box ticked.',
    );
  if (!t.refresh_token) throw new CalendarConnectError('Google answered without a refresh token. Start again from the dashboard.');
  const email = idTokenEmail(t.id_token);
  if (!email) throw new CalendarConnectError('Google did not say which account was connected. Start again from the dashboard.');
  const tokens = { refreshToken: t.refresh_token, accessToken: t.access_token, accessExpiresAt: Date.now() + t.expires_in * 1000 };

  const { connectionId } = await saveOAuthConnection(deps, {
    who,
    kind: 'google',
    email,
    name: `Google Calendar (${email})`,
    displayUrl: 'https://calendar.google.com/',
    seal: (id) => sealGoogleTokens(config, id, tokens),
  });
  return { accountEmail: email, connectionId };
}
