import { randomToken, sha256Hex } from '../../core/crypto';
import { microsoftGraphApi, type MicrosoftGraphApi } from '../../core/calendars/microsoft-api';
import { CalendarPermanentError, CalendarRateLimitedError, CalendarUnavailableError } from '../../core/calendars/provider-http';
import { logger } from '../../core/logger';
import type { ServiceDeps } from '../deps';
import { microsoftAccessToken, microsoftUrls } from './microsoft-tokens';
import type { CalendarRow, ConnectionRow } from './rows';
import { refreshUserBusy } from './user-busy';

/**
 * Graph subscriptions (docs/calendars.md "Microsoft 365"): one per calendar checked for conflicts, on
 * `me/calendars/{id}/events` (created, updated, deleted), with a random `clientState` of ours (only
 * its SHA-256 is kept, in calendar_push_channels with Graph's subscription id and the expiry) and a
 * lifecycle URL. Asked for SUBSCRIPTION_MINUTES; Graph may answer a shorter expiry, which is kept.
 * Renewed (PATCH expirationDateTime) once less than a day, or less than half of its life, remains, or
 * at once after a `reauthorizationRequired` notice (the route sets its expiry to now); one Graph no
 * longer has (404) is made again. Subscriptions of calendars no longer checked, or gone, are deleted.
 */
type Deps = Pick<ServiceDeps, 'db' | 'config'>;

const DAY = 86_400_000;
/**
 * 4230 minutes (just under three days): the maximum Graph documented for Outlook events when
 * lifecycle notifications came in; its subscription page now allows up to 10080 for events. The shorter
 * one is accepted by both, and renewal is cheap.
 */
export const SUBSCRIPTION_MINUTES = 4230;
export const MICROSOFT_PUSH_PATH = '/api/hooks/microsoft-calendar';
export const MICROSOFT_LIFECYCLE_PATH = '/api/hooks/microsoft-calendar/lifecycle';

interface SubscriptionRow {
  id: string;
  calendar_id: string;
  created_at: Date;
  expires_at: Date | null;
}

const renewAt = (c: { created_at: Date; expires_at: Date | null }) => {
  if (!c.expires_at) return Number.NEGATIVE_INFINITY;
  const exp = new Date(c.expires_at).getTime();
  const life = exp - new Date(c.created_at).getTime();
  return exp - Math.min(DAY, Math.max(0, life / 2));
};
const expiry = (now: number) => new Date(now + SUBSCRIPTION_MINUTES * 60_000).toISOString();

/** Make, renew and delete subscriptions; answers how long until the next renewal is due (ms). */
export async function ensureMicrosoftSubscriptions(
  deps: Deps,
  input: { row: ConnectionRow; api: MicrosoftGraphApi; calendars: CalendarRow[]; now: number },
): Promise<number> {
  const { db, config } = deps;
  const { row, api, calendars, now } = input;
  const base = (config.CALENDAR_PUSH_BASE_URL ?? config.baseUrl).replace(/\/+$/, '');
  const subs = (await db('calendar_push_channels').where({ connection_id: row.id })) as SubscriptionRow[];
  const watched = new Set(calendars.filter((c) => c.check_conflicts).map((c) => c.id));
  let next = Number.POSITIVE_INFINITY;
  for (const cal of calendars.filter((c) => watched.has(c.id))) {
    const mine = subs.filter((s) => s.calendar_id === cal.id);
    const [keep, ...extra] = mine;
    for (const old of extra) await deleteOne(deps, api, old.id);
    if (keep && renewAt(keep) > now) {
      next = Math.min(next, renewAt(keep) - now);
      continue;
    }
    if (keep) {
      try {
        const exp = await api.renew(keep.id, expiry(now));
        await db('calendar_push_channels')
          .where({ id: keep.id })
          .update({ expires_at: new Date(exp), created_at: new Date(now) });
        next = Math.min(next, renewAt({ created_at: new Date(now), expires_at: new Date(exp) }) - now);
        continue;
      } catch (err) {
        if (!(err instanceof CalendarPermanentError && err.status === 404)) throw err;
        await db('calendar_push_channels').where({ id: keep.id }).delete(); // Graph removed it: make it again
      }
    }
    const clientState = randomToken(24);
    const resource = `me/calendars/${cal.url}/events`;
    const made = await api.subscribe({
      resource,
      notificationUrl: `${base}${MICROSOFT_PUSH_PATH}`,
      lifecycleNotificationUrl: `${base}${MICROSOFT_LIFECYCLE_PATH}`,
      clientState,
      expirationDateTime: expiry(now),
    });
    await db('calendar_push_channels').insert({
      id: made.id,
      connection_id: row.id,
      calendar_id: cal.id,
      team_id: row.team_id,
      token_hash: sha256Hex(clientState),
      resource_id: resource,
      expires_at: new Date(made.expiresAt),
      created_at: new Date(now),
    });
    next = Math.min(next, renewAt({ created_at: new Date(now), expires_at: new Date(made.expiresAt) }) - now);
  }
  for (const old of subs.filter((s) => !watched.has(s.calendar_id))) await deleteOne(deps, api, old.id);
  return Math.max(1000, next);
}

async function deleteOne(deps: Deps, api: MicrosoftGraphApi, id: string): Promise<void> {
  try {
    await api.unsubscribe(id);
  } catch (err) {
    // It expires on its own; a notification for it is ignored once its row is gone.
    logger.warn({ subscriptionId: id, error: String(err) }, 'Microsoft 365: deleting a subscription failed');
  }
  await deps.db('calendar_push_channels').where({ id }).delete();
}

/**
 * Disconnect, in the worker (the API marked the connection `disconnecting` and removed its busy time):
 * delete every subscription (a 404 counts as deleted), then the row, tokens and all. The v2.0 flow has
 * no endpoint that revokes one refresh token: forgetting it is what we can do (docs/calendars.md).
 */
export async function teardownMicrosoft(deps: Deps, row: ConnectionRow): Promise<void> {
  const { db, config } = deps;
  const subs = (await db('calendar_push_channels').where({ connection_id: row.id })) as SubscriptionRow[];
  if (subs.length) {
    try {
      const api = microsoftGraphApi(microsoftUrls(config), await microsoftAccessToken(deps, { connectionId: row.id }));
      for (const s of subs) await deleteOne(deps, api, s.id);
    } catch (err) {
      // Graph down or throttling: the activity tries again (the row stays `disconnecting`, its busy time already gone).
      if (err instanceof CalendarUnavailableError || err instanceof CalendarRateLimitedError) throw err;
      logger.warn({ connectionId: row.id, error: String(err) }, 'Microsoft 365 disconnect: could not delete the subscriptions');
    }
  }
  await db.transaction(async (trx) => {
    await trx('calendar_connections').where({ id: row.id }).delete();
    await refreshUserBusy(trx, [row.user_id]);
  });
}
