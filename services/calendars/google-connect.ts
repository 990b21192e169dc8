import crypto from 'node:crypto';
import { hmacSha256Hex, randomToken, safeEqual, uuid } from '../../core/crypto';
import { notFound } from '../../core/errors';
import { logger } from '../../core/logger';
import type { Principal } from '../../core/principal';
import { googleAuthorizeUrl, googleToken, idTokenEmail, missingScopes } from '../../core/calendars/google-api';
import { atRestKey } from '../../core/secret-box';
import { transactionWithOutbox } from '../../temporal/outbox';
import { calendarSyncWorkflowId, type CalendarSyncInput } from '../../workflows/calendars/contract';
import type { ServiceDeps } from '../deps';
import { googleClient, googleConfigured, googleUrls, sealGoogleTokens } from './google-tokens';
import type { ConnectionRow } from './rows';
import { requestSyncSoon } from './sync-workflow';
import { refreshUserBusy } from './user-busy';
import { calendarSyncMetadata } from './workflow-metadata';

/**
 * Connecting a host's Google Calendar (docs/calendars.md "Google Calendar"): OAuth 2.0 for web server
 * applications with PKCE. `state` names the dashboard session that started it (and its user and team),
 * expires after ten minutes and is signed with a key derived from the at-rest key; the PKCE verifier
 * is derived from the state under the same key, so nothing is stored between the two requests. The
 * callback (a browser redirect, without the dashboard's bearer token) checks that the session is still
 * live. The code exchange is the one inline call: 5 s, no retry. Everything after it (the calendar
 * list, the first sync, the push channels) runs in the connection's sync workflow.
 */
const STATE_TTL_MS = 10 * 60_000;
export const GOOGLE_CODE_EXCHANGE_TIMEOUT_MS = 5_000;

type Deps = Pick<ServiceDeps, 'config'>;
export const googleCallbackUrl = (deps: Deps) => `${deps.config.baseUrl}/api/v1/google-calendar/callback`;
const stateKey = (deps: Deps) => hmacSha256Hex(atRestKey(deps.config), 'google-calendar-oauth-state');
const sign = (deps: Deps, body: string) => hmacSha256Hex(stateKey(deps), body);
const verifierFor = (deps: Deps, body: string) => Buffer.from(hmacSha256Hex(stateKey(deps), `pkce:${body}`), 'hex').toString('base64url');

export class GoogleConnectError extends Error {}

export function startGoogleConnect(deps: Deps, input: { principal: Principal }): { authorize_url: string } {
  const { config } = deps;
  if (!googleConfigured(config)) throw notFound('Google Calendar is not set up (GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET)');
  const p = input.principal;
  const body = `${p.credentialId}.${p.userId}.${p.teamId}.${Date.now() + STATE_TTL_MS}.${randomToken(8)}`;
  const state = `${body}.${sign(deps, body)}`;
  const codeChallenge = crypto.createHash('sha256').update(verifierFor(deps, body)).digest('base64url');
  return {
    authorize_url: googleAuthorizeUrl(googleUrls(config), {
      clientId: config.GOOGLE_CLIENT_ID!,
      redirectUri: googleCallbackUrl(deps),
      state,
      codeChallenge,
    }),
  };
}

const INVALID = 'The link is not valid: start again from the dashboard.';

function readState(deps: Deps, state: string): { sessionId: string; userId: string; teamId: string; verifier: string } {
  const parts = state.split('.');
  if (parts.length !== 6) throw new GoogleConnectError(INVALID);
  const body = parts.slice(0, 5).join('.');
  if (!safeEqual(parts[5], sign(deps, body))) throw new GoogleConnectError(INVALID);
  if (Number(parts[3]) < Date.now()) throw new GoogleConnectError('The link has expired: start again from the dashboard.');
  return { sessionId: parts[0], userId: parts[1], teamId: parts[2], verifier: verifierFor(deps, body) };
}

/** The callback: check the state and its session, exchange the code (bounded, not retried), keep the tokens sealed. */
export async function completeGoogleConnect(
  deps: Pick<ServiceDeps, 'db' | 'config' | 'outbox'>,
  input: { code: string; state: string },
): Promise<{ accountEmail: string; connectionId: string }> {
  const { db, config } = deps;
  if (!googleConfigured(config)) throw new GoogleConnectError('Google Calendar is not set up on this server.');
  const who = readState(deps, input.state);
  const session = await db('sessions').where({ id: who.sessionId, user_id: who.userId }).where('expires_at', '>', new Date()).first('id');
  if (!session) throw new GoogleConnectError('The dashboard session that started this connection has ended: sign in and start again.');
  const user = await db('users').where({ id: who.userId, team_id: who.teamId }).whereNull('removed_at').first('id');
  if (!user) throw new GoogleConnectError('The account that started this connection no longer exists.');
  let t;
  try {
    t = await googleToken(
      googleUrls(config),
      googleClient(config),
      { grant_type: 'authorization_code', code: input.code, code_verifier: who.verifier, redirect_uri: googleCallbackUrl(deps) },
      GOOGLE_CODE_EXCHANGE_TIMEOUT_MS,
    );
  } catch (err) {
    logger.warn({ userId: who.userId, error: String(err) }, 'Google Calendar connect: the code exchange failed');
    throw new GoogleConnectError('Google did not accept the connection (or did not answer in time). Start again from the dashboard.');
  }
  const missing = missingScopes(t.scope);
  if (missing.length)
    throw new GoogleConnectError(
      'Google Calendar was connected without the permissions it needs (the calendar list and events). Start again and leave every box ticked.',
    );
  if (!t.refresh_token) throw new GoogleConnectError('Google answered without a refresh token. Start again from the dashboard.');
  const email = idTokenEmail(t.id_token);
  if (!email) throw new GoogleConnectError('Google did not say which account was connected. Start again from the dashboard.');
  const tokens = { refreshToken: t.refresh_token, accessToken: t.access_token, accessExpiresAt: Date.now() + t.expires_in * 1000 };

  const { row, created } = await transactionWithOutbox(db, deps.outbox, async (trx, enqueue) => {
    const existing = (await trx('calendar_connections')
      .where({ team_id: who.teamId, kind: 'google', account_email: email })
      .forUpdate()
      .first()) as ConnectionRow | undefined;
    if (existing && existing.user_id !== who.userId)
      throw new GoogleConnectError(`${email} is already connected by another member of the team.`);
    if (existing && existing.status === 'disconnecting')
      throw new GoogleConnectError(`${email} is being disconnected: try again in a minute.`);
    const id = existing?.id ?? uuid();
    const values = {
      credentials_enc: sealGoogleTokens(config, id, tokens),
      status: 'syncing' as const,
      status_message: null,
      // a later needs_reauth emails the host again
      reauth_email_sent_at: null,
      updated_at: new Date(),
    };
    let saved: ConnectionRow;
    if (existing) {
      [saved] = await trx('calendar_connections').where({ id }).update(values).returning('*');
    } else {
      [saved] = await trx('calendar_connections')
        .insert({
          id,
          team_id: who.teamId,
          user_id: who.userId,
          kind: 'google',
          name: `Google Calendar (${email})`,
          display_url: 'https://calendar.google.com/',
          account_email: email,
          ...values,
        })
        .returning('*');
      const args: CalendarSyncInput = { connectionId: id, teamId: who.teamId, userId: who.userId };
      await enqueue({
        workflowType: 'calendarSyncWorkflow',
        workflowId: calendarSyncWorkflowId(id),
        args: [args],
        searchAttributes: { TeamId: who.teamId, UserId: who.userId },
        memo: { kind: 'google', host: email },
        ...calendarSyncMetadata({ id, teamId: who.teamId, userId: who.userId, name: saved.name, kind: 'google', host: email }),
      });
    }
    // Never read yet: the host offers no times until the first sync (user-busy.ts).
    await refreshUserBusy(trx, [who.userId]);
    return { row: saved, created: !existing };
  });
  if (!created) await requestSyncSoon(deps, row);
  return { accountEmail: email, connectionId: row.id };
}
