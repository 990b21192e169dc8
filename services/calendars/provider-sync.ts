import type { Mailer } from '../../core/mailer';
import type { ServiceDeps } from '../deps';
import { emailHostSoon, markNeedsReauthAndEmail } from './calendar-reauth';
import { finishProviderSync, firstPushExpiry, providerSyncFailed, saveProviderCalendars, type ProviderCalendar } from './event-store';
import type { CalendarRow, ConnectionRow } from './rows';
import type { SyncResult } from './sync-result';
import { hostZoneAndEmails, syncIntervalMs, syncWindow } from './window';

export type ProviderSyncDeps = Pick<ServiceDeps, 'db' | 'config'> & { mailer?: Mailer };
export type SyncWindow = { from: number; to: number; horizonEnd: number };

/** What one provider's sync brings to the common steps (google-sync.ts, microsoft-sync.ts). */
export interface ProviderSync<Api> {
  /** Named in the workflow's details with the account: `google`, `microsoft`. */
  name: string;
  /** What its push is called there: "push channel", "subscription". */
  pushName: string;
  /** The status message of a connection that needs connecting again, from the failure that made it so. */
  reauthMessage(err: unknown): string;
  /** A disconnected connection: stop the push, revoke or forget the tokens. */
  teardown(deps: ProviderSyncDeps, row: ConnectionRow): Promise<void>;
  /** Run with the provider's API under a fresh access token (refreshed once on a 401). */
  withApi(deps: ProviderSyncDeps, input: { connectionId: string; run: (api: Api) => Promise<void> }): Promise<void>;
  /** The account's calendars, as saved. */
  calendars(api: Api): Promise<ProviderCalendar[]>;
  /** Read one checked calendar's changes (or all of it) and store its busy time. */
  syncCalendar(
    deps: ProviderSyncDeps,
    input: { row: ConnectionRow; cal: CalendarRow; api: Api; window: SyncWindow; zone: string; now: number },
  ): Promise<void>;
  /** Each checked calendar has a live push; answers how soon the next sync must come to renew one. */
  ensurePush(deps: ProviderSyncDeps, input: { row: ConnectionRow; api: Api; calendars: CalendarRow[]; now: number }): Promise<number>;
}

/**
 * One sync of a provider connection, in its `calendar-sync-<id>` workflow (docs/calendars.md "Google
 * Calendar", "Microsoft 365"): a disconnected one is torn down; one that needs connecting again only
 * emails its host (once) and offers no times; otherwise the calendar list is saved, each checked
 * calendar read, the push kept alive and the host's busy time rewritten. A dead grant marks
 * `needs_reauth` and emails the host; throttling is thrown for the activity to retry after Retry-After.
 */
export async function syncProviderConnection<Api>(
  deps: ProviderSyncDeps,
  input: { row: ConnectionRow; now: number; provider: ProviderSync<Api> },
): Promise<SyncResult> {
  const { db, config } = deps;
  const { row, now, provider: p } = input;
  const interval = syncIntervalMs(config.CALENDAR_SYNC_INTERVAL);
  if (row.status === 'disconnecting') {
    await p.teardown(deps, row);
    return { outcome: 'gone', message: null, nextSyncMs: interval };
  }
  if (row.status === 'needs_reauth') {
    await emailHostSoon(deps, { connectionId: row.id }); // a no-op once sent
    return { outcome: 'error', message: row.status_message ?? p.reauthMessage(null), nextSyncMs: interval };
  }
  let nextSyncMs = interval;
  try {
    await p.withApi(deps, {
      connectionId: row.id,
      run: async (api) => {
        const calendars = await saveProviderCalendars(db, { row, list: await p.calendars(api) });
        const window = await syncWindow(db, { userId: row.user_id, now });
        const host = await hostZoneAndEmails(db, row.user_id);
        const reexpand = !row.expanded_until || row.expanded_until.getTime() < window.horizonEnd;
        for (const cal of calendars.filter((c) => c.check_conflicts)) {
          await p.syncCalendar(deps, { row, cal, api, window, zone: cal.timezone ?? host.zone, now });
        }
        nextSyncMs = Math.min(interval, await p.ensurePush(deps, { row, api, calendars, now }));
        await finishProviderSync(deps, { row, now, window: reexpand ? window : null, hostZone: host.zone });
      },
    });
  } catch (err) {
    const reauthMessage = p.reauthMessage(err);
    return providerSyncFailed(deps, {
      row,
      now,
      interval,
      err,
      reauthMessage,
      needsReauth: () => markNeedsReauthAndEmail(deps, { row, now, interval, message: reauthMessage }),
    });
  }
  // The workflow's details (operators): the provider and account (never a token) and when the first push expires.
  const expires = await firstPushExpiry(db, row.id);
  return { outcome: 'ok', message: `${p.name} ${row.account_email ?? ''}, ${p.pushName} expiry ${expires}`, nextSyncMs };
}
