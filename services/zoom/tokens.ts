import type { Config } from '../../core/config';
import { atRestBox, rowAad } from '../../core/secret-box';
import { zoomApi, zoomToken, type ZoomCall, type ZoomUrls } from '../../core/video/zoom-api';
import type { ServiceDeps } from '../deps';

/**
 * A Zoom access token for a host (docs/scheduling.md "Zoom"), in either set-up:
 * - `installation`: Server-to-Server OAuth (`grant_type=account_credentials` with ZOOM_ACCOUNT_ID),
 *   cached in the process until a minute before it expires; the host's Zoom user is their email;
 * - `per_host`: the host's own connection; an expired access token is refreshed under the row's
 *   lock, and the rotated refresh token Zoom answers is stored, sealed, at once.
 * Activities only: tokens never enter a workflow's history.
 */

export type ZoomConfig = Pick<
  Config,
  | 'ZOOM_SETUP'
  | 'ZOOM_API_URL'
  | 'ZOOM_OAUTH_URL'
  | 'ZOOM_CLIENT_ID'
  | 'ZOOM_CLIENT_SECRET'
  | 'ZOOM_ACCOUNT_ID'
  | 'CALENDAR_CREDENTIALS_KEY'
  | 'NODE_ENV'
  | 'dataDir'
>;

export interface ZoomAccess {
  call: ZoomCall;
  accessToken: string;
  /** The Zoom user the host's meetings are made for: a user id, or the email (installation). */
  user: string;
  connectionId: string | null;
}

export const zoomUrls = (config: ZoomConfig): ZoomUrls => ({ apiUrl: config.ZOOM_API_URL, oauthUrl: config.ZOOM_OAUTH_URL });
export const zoomClient = (config: ZoomConfig) => ({ id: config.ZOOM_CLIENT_ID ?? '', secret: config.ZOOM_CLIENT_SECRET ?? '' });
/** Each sealed token is bound to its connection and its kind. */
export const tokenAad = (connectionId: string, kind: 'refresh' | 'access') => `${rowAad('zoom_connections', connectionId)}:${kind}`;

const MARGIN_MS = 60_000;
const accountTokens = new Map<string, { token: string; until: number }>();

async function accountToken(config: ZoomConfig): Promise<string> {
  const key = `${config.ZOOM_OAUTH_URL}|${config.ZOOM_ACCOUNT_ID}|${config.ZOOM_CLIENT_ID}`;
  const held = accountTokens.get(key);
  if (held && held.until > Date.now()) return held.token;
  const t = await zoomToken(zoomUrls(config), zoomClient(config), {
    grant_type: 'account_credentials',
    account_id: config.ZOOM_ACCOUNT_ID ?? '',
  });
  accountTokens.set(key, { token: t.access_token, until: Date.now() + t.expires_in * 1000 - MARGIN_MS });
  return t.access_token;
}

/** A connection's access token, refreshed (and the refresh token rotated) when it is about to expire. */
export async function connectionToken(
  deps: Pick<ServiceDeps, 'db'> & { config: ZoomConfig },
  input: { connectionId: string },
): Promise<string | null> {
  const { config } = deps;
  const box = atRestBox(config);
  const id = input.connectionId;
  return deps.db.transaction(async (trx) => {
    const row = await trx('zoom_connections').where({ id }).forUpdate().first();
    if (!row) return null;
    if (row.access_token_sealed && row.access_expires_at && new Date(row.access_expires_at).getTime() > Date.now() + MARGIN_MS) {
      return box.open(row.access_token_sealed, tokenAad(id, 'access'));
    }
    const refresh = box.open(row.refresh_token_sealed, tokenAad(id, 'refresh'));
    const t = await zoomToken(zoomUrls(config), zoomClient(config), { grant_type: 'refresh_token', refresh_token: refresh });
    await trx('zoom_connections')
      .where({ id })
      .update({
        refresh_token_sealed: box.seal(t.refresh_token ?? refresh, tokenAad(id, 'refresh')),
        access_token_sealed: box.seal(t.access_token, tokenAad(id, 'access')),
        access_expires_at: new Date(Date.now() + t.expires_in * 1000),
        updated_at: trx.fn.now(),
      });
    return t.access_token;
  });
}

/** The REST call of a stored Zoom meeting's connection (installation: the account's token). */
export async function zoomCallFor(
  deps: Pick<ServiceDeps, 'db'> & { config: ZoomConfig },
  input: { connectionId: string | null },
): Promise<{ call: ZoomCall; accessToken: string } | null> {
  const accessToken =
    deps.config.ZOOM_SETUP === 'installation'
      ? await accountToken(deps.config)
      : input.connectionId
        ? await connectionToken(deps, { connectionId: input.connectionId })
        : null;
  return accessToken ? { call: zoomApi(zoomUrls(deps.config), accessToken), accessToken } : null;
}

/** Access for a host, or null when the host has no Zoom (per host: not connected; installation: no such user row). */
export async function zoomAccessFor(
  deps: Pick<ServiceDeps, 'db'> & { config: ZoomConfig },
  input: { hostUserId: string },
): Promise<ZoomAccess | null> {
  const { db, config } = deps;
  if (config.ZOOM_SETUP === 'installation') {
    const host = await db('users').where({ id: input.hostUserId }).first('email');
    if (!host) return null;
    const accessToken = await accountToken(config);
    return { call: zoomApi(zoomUrls(config), accessToken), accessToken, user: host.email, connectionId: null };
  }
  const conn = await db('zoom_connections').where({ user_id: input.hostUserId }).first('id', 'zoom_user_id');
  if (!conn) return null;
  const accessToken = await connectionToken(deps, { connectionId: conn.id });
  if (!accessToken) return null;
  return { call: zoomApi(zoomUrls(config), accessToken), accessToken, user: conn.zoom_user_id, connectionId: conn.id };
}
