import { randomToken, sha256Hex, uuid } from '../../core/crypto';
import {
  googleCalendarApi,
  GoogleRateLimitedError,
  googleRevoke,
  GoogleUnavailableError,
  type GoogleCalendarApi,
} from '../../core/calendars/google-api';
import { logger } from '../../core/logger';
import type { ServiceDeps } from '../deps';
import { googleAccessToken, googleUrls, openGoogleTokens } from './google-tokens';
import type { CalendarRow, ConnectionRow } from './rows';
import { refreshUserBusy } from './user-busy';

/**
 * Google push channels (events.watch; docs/calendars.md "Google Calendar"): one per calendar checked
 * for conflicts, with a secret token of ours (only its SHA-256 is kept) that Google echoes in
 * X-Goog-Channel-Token. A channel is renewed (a new one made, then the old one stopped) once less than
 * half of its life, or less than a day, remains; the sync wakes in time for it. Channels of calendars
 * no longer checked, or gone, are stopped.
 */
type Deps = Pick<ServiceDeps, 'db' | 'config'>;

const DAY = 86_400_000;
export const GOOGLE_PUSH_PATH = '/api/hooks/google-calendar';

const renewAt = (c: { created_at: Date; expires_at: Date | null }) => {
  if (!c.expires_at) return Number.POSITIVE_INFINITY;
  const exp = new Date(c.expires_at).getTime();
  const life = exp - new Date(c.created_at).getTime();
  return exp - Math.min(DAY, Math.max(0, life / 2));
};

/** Make, renew and stop channels; answers how long until the next renewal is due (ms). */
export async function ensureGoogleChannels(
  deps: Deps,
  input: { row: ConnectionRow; api: GoogleCalendarApi; calendars: CalendarRow[]; now: number },
): Promise<number> {
  const { db, config } = deps;
  const { row, api, calendars, now } = input;
  const address = `${(config.CALENDAR_PUSH_BASE_URL ?? config.baseUrl).replace(/\/+$/, '')}${GOOGLE_PUSH_PATH}`;
  const channels = (await db('calendar_push_channels').where({ connection_id: row.id })) as Array<{
    id: string;
    calendar_id: string;
    resource_id: string;
    created_at: Date;
    expires_at: Date | null;
  }>;
  const watched = new Set(calendars.filter((c) => c.check_conflicts).map((c) => c.id));
  let next = Number.POSITIVE_INFINITY;
  for (const cal of calendars.filter((c) => watched.has(c.id))) {
    const mine = channels.filter((c) => c.calendar_id === cal.id);
    const live = mine.find((c) => renewAt(c) > now);
    if (live) {
      next = Math.min(next, renewAt(live) - now);
      continue;
    }
    const id = uuid();
    const token = randomToken(24);
    const made = await api.watch(cal.url, { id, address, token });
    const created = new Date(now);
    await db('calendar_push_channels').insert({
      id,
      connection_id: row.id,
      calendar_id: cal.id,
      team_id: row.team_id,
      token_hash: sha256Hex(token),
      resource_id: made.resourceId,
      expires_at: made.expiration ? new Date(made.expiration) : null,
      created_at: created,
    });
    next = Math.min(next, renewAt({ created_at: created, expires_at: made.expiration ? new Date(made.expiration) : null }) - now);
    for (const old of mine) await stopOne(deps, api, old);
  }
  for (const old of channels.filter((c) => !watched.has(c.calendar_id))) await stopOne(deps, api, old);
  return Math.max(1000, next);
}

async function stopOne(deps: Deps, api: GoogleCalendarApi, c: { id: string; resource_id: string }): Promise<void> {
  try {
    await api.stopChannel({ id: c.id, resourceId: c.resource_id });
  } catch (err) {
    // It expires on its own; a push for it is ignored once its row is gone.
    logger.warn({ channelId: c.id, error: String(err) }, 'Google Calendar: channels.stop failed');
  }
  await deps.db('calendar_push_channels').where({ id: c.id }).delete();
}

/**
 * Disconnect, in the worker (the API marked the connection `disconnecting` and removed its busy time):
 * stop every channel, revoke the refresh token (which ends its access tokens), then delete the row.
 * Google refusing either is logged, never retried for ever: the row goes all the same.
 */
export async function teardownGoogle(deps: Deps, row: ConnectionRow): Promise<void> {
  const { db, config } = deps;
  const channels = (await db('calendar_push_channels').where({ connection_id: row.id })) as Array<{ id: string; resource_id: string }>;
  if (channels.length) {
    try {
      const api = googleCalendarApi(googleUrls(config), await googleAccessToken(deps, { connectionId: row.id }));
      for (const c of channels) await stopOne(deps, api, c);
    } catch (err) {
      logger.warn({ connectionId: row.id, error: String(err) }, 'Google Calendar disconnect: could not stop the channels');
    }
  }
  try {
    await googleRevoke(googleUrls(config), openGoogleTokens(config, row.id, row.credentials_enc).refreshToken);
  } catch (err) {
    // Google down or throttling: the activity tries again (the row stays `disconnecting`, its busy time already gone).
    if (err instanceof GoogleUnavailableError || err instanceof GoogleRateLimitedError) throw err;
    logger.warn({ connectionId: row.id, error: String(err) }, 'Google Calendar disconnect: the token could not be revoked');
  }
  await db.transaction(async (trx) => {
    await trx('calendar_connections').where({ id: row.id }).delete();
    await refreshUserBusy(trx, [row.user_id]);
  });
}
