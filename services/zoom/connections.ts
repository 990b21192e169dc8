import { z } from 'zod';
import { hmacSha256Hex, randomToken, safeEqual } from '../../core/crypto';
import { notFound } from '../../core/errors';
import { logger } from '../../core/logger';
import type { Principal } from '../../core/principal';
import { atRestBox, atRestKey } from '../../core/secret-box';
import { zoomAuthorizeUrl, zoomToken } from '../../core/video/zoom-api';
import type { ServiceDeps } from '../deps';
import { purgeZoomConnection } from './purge';
import { tokenAad, zoomClient, zoomUrls } from './tokens';

/**
 * A host's own Zoom account (ZOOM_SETUP=per_host; docs/scheduling.md "Zoom"): the authorization-code
 * flow, started from the dashboard with the host's session. The `state` names the host and team,
 * expires after ten minutes and is signed with a key derived from the at-rest key, so the callback
 * (a browser redirect from Zoom, without the dashboard's bearer token) knows whom it connects. The
 * code exchange at the callback is the one call to Zoom made inline: 5 s, no retry.
 */
const STATE_TTL_MS = 10 * 60_000;
export const CODE_EXCHANGE_TIMEOUT_MS = 5_000;

const callbackUrl = (deps: Pick<ServiceDeps, 'config'>) => `${deps.config.baseUrl}/api/v1/zoom-connection/callback`;
const stateKey = (deps: Pick<ServiceDeps, 'config'>) => hmacSha256Hex(atRestKey(deps.config), 'zoom-oauth-state');
const sign = (deps: Pick<ServiceDeps, 'config'>, body: string) => hmacSha256Hex(stateKey(deps), body);

export class ZoomConnectError extends Error {}

export function startZoomConnect(deps: Pick<ServiceDeps, 'config'>, input: { principal: Principal }): { authorize_url: string } {
  if (deps.config.ZOOM_SETUP !== 'per_host' || !deps.config.ZOOM_CLIENT_ID) throw notFound('Zoom is not set up for hosts to connect');
  const body = `${input.principal.userId}.${input.principal.teamId}.${Date.now() + STATE_TTL_MS}.${randomToken(8)}`;
  const state = `${body}.${sign(deps, body)}`;
  return {
    authorize_url: zoomAuthorizeUrl(zoomUrls(deps.config), { clientId: deps.config.ZOOM_CLIENT_ID, redirectUri: callbackUrl(deps), state }),
  };
}

function readState(deps: Pick<ServiceDeps, 'config'>, state: string): { userId: string; teamId: string } {
  const parts = state.split('.');
  if (parts.length !== 5) throw new ZoomConnectError('The link is not valid: start again from the dashboard.');
  const [userId, teamId, expires] = parts;
  if (!safeEqual(parts[4], sign(deps, parts.slice(0, 4).join('.'))))
    throw new ZoomConnectError('The link is not valid: start again from the dashboard.');
  if (Number(expires) < Date.now()) throw new ZoomConnectError('The link has expired: start again from the dashboard.');
  return { userId, teamId };
}

/** The Zoom user and account of an access token (Zoom's tokens are JWTs carrying `uid` and `aid`). */
function claims(accessToken: string): { uid: string; aid: string } {
  const parsed = z.object({ uid: z.string().min(1), aid: z.string().default('') }).safeParse(
    (() => {
      try {
        return JSON.parse(Buffer.from(accessToken.split('.')[1] ?? '', 'base64url').toString('utf8'));
      } catch {
        return null;
      }
    })(),
  );
  return parsed.success ? parsed.data : { uid: 'me', aid: '' };
}

/** The callback: exchange the code (bounded, not retried) and keep the tokens sealed. */
export async function completeZoomConnect(
  deps: Pick<ServiceDeps, 'db' | 'config'>,
  input: { code: string; state: string },
): Promise<{ zoomUserId: string }> {
  const { db, config } = deps;
  const who = readState(deps, input.state);
  const user = await db('users').where({ id: who.userId, team_id: who.teamId }).first('id');
  if (!user) throw new ZoomConnectError('The account that started this connection no longer exists.');
  let t;
  try {
    t = await zoomToken(
      zoomUrls(config),
      zoomClient(config),
      { grant_type: 'authorization_code', code: input.code, redirect_uri: callbackUrl(deps) },
      CODE_EXCHANGE_TIMEOUT_MS,
    );
  } catch (err) {
    logger.warn({ userId: who.userId, error: String(err) }, 'Zoom connect: the code exchange failed');
    throw new ZoomConnectError('Zoom did not accept the connection (or did not answer in time). Start again from the dashboard.');
  }
  if (!t.refresh_token) throw new ZoomConnectError('Zoom answered without a refresh token. Start again from the dashboard.');
  const { uid, aid } = claims(t.access_token);
  const box = atRestBox(config);
  await db.transaction(async (trx) => {
    const existing = await trx('zoom_connections').where({ user_id: who.userId }).forUpdate().first('id');
    const id = existing?.id ?? (await trx.raw<{ rows: Array<{ id: string }> }>('SELECT gen_random_uuid() AS id')).rows[0].id;
    const row = {
      zoom_user_id: uid,
      zoom_account_id: aid,
      refresh_token_sealed: box.seal(t.refresh_token!, tokenAad(id, 'refresh')),
      access_token_sealed: box.seal(t.access_token, tokenAad(id, 'access')),
      access_expires_at: new Date(Date.now() + t.expires_in * 1000),
      updated_at: new Date(),
    };
    if (existing) await trx('zoom_connections').where({ id }).update(row);
    else await trx('zoom_connections').insert({ id, team_id: who.teamId, user_id: who.userId, ...row });
  });
  return { zoomUserId: uid };
}

const COLUMNS = ['id', 'zoom_user_id', 'zoom_account_id', 'created_at', 'updated_at'] as const;

/** The caller's own connection (never its tokens). */
export async function getZoomConnection(deps: Pick<ServiceDeps, 'db'>, input: { principal: Principal }) {
  const row = await deps
    .db('zoom_connections')
    .where({ user_id: input.principal.userId })
    .first(...COLUMNS);
  if (!row) throw notFound('No Zoom connection');
  return row;
}

/** Disconnect: the same purge as Zoom's app_deauthorized (services/zoom/purge.ts). */
export async function disconnectZoom(deps: Pick<ServiceDeps, 'db'>, input: { principal: Principal }): Promise<void> {
  const row = await deps.db('zoom_connections').where({ user_id: input.principal.userId }).first('id');
  if (!row) throw notFound('No Zoom connection');
  await purgeZoomConnection(deps, { connectionId: row.id });
}
