import crypto from 'node:crypto';
import { hmacSha256Hex, randomToken, safeEqual, uuid } from '../../core/crypto';
import type { Principal } from '../../core/principal';
import { atRestKey } from '../../core/secret-box';
import { transactionWithOutbox } from '../../temporal/outbox';
import { calendarSyncWorkflowId, type CalendarSyncInput } from '../../workflows/calendars/contract';
import type { ServiceDeps } from '../deps';
import type { ConnectionKind, ConnectionRow } from './rows';
import { requestSyncSoon } from './sync-workflow';
import { refreshUserBusy } from './user-busy';
import { calendarSyncMetadata } from './workflow-metadata';

/**
 * What connecting a provider's calendar with OAuth 2.0 has in common (Google, Microsoft;
 * docs/calendars.md "Google Calendar", "Microsoft 365"): `state` names the dashboard session that
 * started it (and its user and team), expires after ten minutes and is signed with a key derived from
 * the at-rest key (one key per provider); the PKCE verifier is derived from the state under the same
 * key, so nothing is stored between the two requests. The callback checks that the session is still
 * live, and saves the connection (one per account in a team) with its workflow started through the outbox.
 */
const STATE_TTL_MS = 10 * 60_000;
/** The code exchange at the callback: the API's one inline call to the provider, not retried. */
export const CODE_EXCHANGE_TIMEOUT_MS = 5_000;

type Deps = Pick<ServiceDeps, 'config'>;
export type OAuthProvider = 'google' | 'microsoft';
const stateKey = (deps: Deps, p: OAuthProvider) => hmacSha256Hex(atRestKey(deps.config), `${p}-calendar-oauth-state`);
const sign = (deps: Deps, p: OAuthProvider, body: string) => hmacSha256Hex(stateKey(deps, p), body);
const verifierFor = (deps: Deps, p: OAuthProvider, body: string) =>
  Buffer.from(hmacSha256Hex(stateKey(deps, p), `pkce:${body}`), 'hex').toString('base64url');

export class CalendarConnectError extends Error {}

/** A signed state for the principal's session and its PKCE S256 challenge. */
export function oauthState(deps: Deps, input: { provider: OAuthProvider; principal: Principal }): { state: string; codeChallenge: string } {
  const { provider: p, principal } = input;
  const body = `${principal.credentialId}.${principal.userId}.${principal.teamId}.${Date.now() + STATE_TTL_MS}.${randomToken(8)}`;
  const codeChallenge = crypto
    .createHash('sha256')
    .update(verifierFor(deps, p, body))
    .digest('base64url');
  return { state: `${body}.${sign(deps, p, body)}`, codeChallenge };
}

const INVALID = 'The link is not valid: start again from the dashboard.';

export interface OAuthCaller {
  sessionId: string;
  userId: string;
  teamId: string;
  verifier: string;
}

/** The state checked (signature, expiry), and the session it names still live, its user still a member. */
export async function readOAuthState(
  deps: Pick<ServiceDeps, 'db' | 'config'>,
  input: { provider: OAuthProvider; state: string },
): Promise<OAuthCaller> {
  const { provider: p, state } = input;
  const parts = state.split('.');
  if (parts.length !== 6) throw new CalendarConnectError(INVALID);
  const body = parts.slice(0, 5).join('.');
  if (!safeEqual(parts[5], sign(deps, p, body))) throw new CalendarConnectError(INVALID);
  if (Number(parts[3]) < Date.now()) throw new CalendarConnectError('The link has expired: start again from the dashboard.');
  const who = { sessionId: parts[0], userId: parts[1], teamId: parts[2], verifier: verifierFor(deps, p, body) };
  const { db } = deps;
  const session = await db('sessions').where({ id: who.sessionId, user_id: who.userId }).where('expires_at', '>', new Date()).first('id');
  if (!session) throw new CalendarConnectError('The dashboard session that started this connection has ended: sign in and start again.');
  const user = await db('users').where({ id: who.userId, team_id: who.teamId }).whereNull('removed_at').first('id');
  if (!user) throw new CalendarConnectError('The account that started this connection no longer exists.');
  return who;
}

/**
 * Save the connection of `email` (new, or the same account connected again: its tokens replaced and a
 * `needs_reauth` connection revived), its host blocked until the first sync, its workflow started.
 */
export async function saveOAuthConnection(
  deps: Pick<ServiceDeps, 'db' | 'outbox'>,
  input: {
    who: OAuthCaller;
    kind: Extract<ConnectionKind, OAuthProvider>;
    email: string;
    name: string;
    displayUrl: string;
    seal: (connectionId: string) => string;
  },
): Promise<{ connectionId: string }> {
  const { who, kind, email } = input;
  const { row, created } = await transactionWithOutbox(deps.db, deps.outbox, async (trx, enqueue) => {
    const existing = (await trx('calendar_connections').where({ team_id: who.teamId, kind, account_email: email }).forUpdate().first()) as
      ConnectionRow | undefined;
    if (existing && existing.user_id !== who.userId)
      throw new CalendarConnectError(`${email} is already connected by another member of the team.`);
    if (existing && existing.status === 'disconnecting')
      throw new CalendarConnectError(`${email} is being disconnected: try again in a minute.`);
    const id = existing?.id ?? uuid();
    const values = {
      credentials_enc: input.seal(id),
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
          kind,
          name: input.name,
          display_url: input.displayUrl,
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
        memo: { kind, host: email },
        ...calendarSyncMetadata({ id, teamId: who.teamId, userId: who.userId, name: saved.name, kind, host: email }),
      });
    }
    // Never read yet: the host offers no times until the first sync (user-busy.ts).
    await refreshUserBusy(trx, [who.userId]);
    return { row: saved, created: !existing };
  });
  if (!created) await requestSyncSoon(deps, row);
  return { connectionId: row.id };
}
