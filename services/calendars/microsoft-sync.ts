import type { MicrosoftGraphApi } from '../../core/calendars/microsoft-api';
import { CalendarSyncStateGoneError } from '../../core/calendars/provider-http';
import { logger } from '../../core/logger';
import type { EventTimes } from '../../domain/calendars/event-busy';
import { graphEventTimes } from '../../domain/calendars/microsoft-busy';
import type { ServiceDeps } from '../deps';
import type { Mailer } from '../../core/mailer';
import { emailHostSoon, markNeedsReauthAndEmail, MICROSOFT_NEEDS_REAUTH_MESSAGE } from './calendar-reauth';
import { finishProviderSync, firstPushExpiry, providerSyncFailed, saveProviderCalendars, storeCalendarEvents } from './event-store';
import { ensureMicrosoftSubscriptions, teardownMicrosoft } from './microsoft-subscriptions';
import { withMicrosoftApi } from './microsoft-tokens';
import type { CalendarRow, ConnectionRow } from './rows';
import type { SyncResult } from './sync-result';
import { hostZoneAndEmails, syncIntervalMs, syncWindow } from './window';

/**
 * One sync of a Microsoft 365 connection (docs/calendars.md "Microsoft 365"), in the connection's
 * `calendar-sync-<id>` workflow, woken by the interval, "sync now" or a Graph notification:
 * 1. `GET /me/calendars` is saved (name, colour, read-only unless `canEdit`); new calendars check conflicts;
 * 2. each checked calendar is read with calendarView delta: a round starts with the window
 *    (startDateTime, endDateTime) and follows `@odata.nextLink` to the `@odata.deltaLink`, which is
 *    stored; later syncs read from the deltaLink (only what changed; `@removed` for what went). The round
 *    starts again (a full read) when the window start has moved by a day or the horizon grew past it, so
 *    the window rolls forward; a 410 (`syncStateNotFound`, `resyncRequired`) wipes the calendar and reads it in full;
 * 3. events are stored in the common shape (microsoft-busy.ts) and their busy time replaces theirs before;
 * 4. each checked calendar has a live Graph subscription (microsoft-subscriptions.ts).
 * `invalid_grant` (AADSTS700082 included) or a 401 that survives a refresh → `needs_reauth`. Throttling
 * (429, 503 with Retry-After) is thrown for the activity to retry after Retry-After.
 */
type Deps = Pick<ServiceDeps, 'db' | 'config'> & { mailer?: Mailer };

const DAY = 86_400_000;
export { MICROSOFT_NEEDS_REAUTH_MESSAGE };

export async function syncMicrosoftConnection(deps: Deps, input: { row: ConnectionRow; now: number }): Promise<SyncResult> {
  const { db, config } = deps;
  const { row, now } = input;
  const interval = syncIntervalMs(config.CALENDAR_SYNC_INTERVAL);
  if (row.status === 'disconnecting') {
    await teardownMicrosoft(deps, row);
    return { outcome: 'gone', message: null, nextSyncMs: interval };
  }
  if (row.status === 'needs_reauth') {
    await emailHostSoon(deps, { connectionId: row.id }); // a no-op once sent
    return { outcome: 'error', message: row.status_message ?? MICROSOFT_NEEDS_REAUTH_MESSAGE, nextSyncMs: interval };
  }
  let nextSyncMs = interval;
  try {
    await withMicrosoftApi(deps, {
      connectionId: row.id,
      run: async (api) => {
        const list = await api.calendars();
        const calendars = await saveProviderCalendars(db, {
          row,
          list: list.map((c) => ({
            remoteId: c.id,
            name: c.name || c.id,
            color: c.hexColor || null,
            timezone: null,
            readOnly: !c.canEdit,
          })),
        });
        const window = await syncWindow(db, { userId: row.user_id, now });
        const host = await hostZoneAndEmails(db, row.user_id);
        const reexpand = !row.expanded_until || row.expanded_until.getTime() < window.horizonEnd;
        for (const cal of calendars.filter((c) => c.check_conflicts))
          await syncCalendar(deps, { row, cal, api, window, zone: host.zone, now });
        nextSyncMs = Math.min(interval, await ensureMicrosoftSubscriptions(deps, { row, api, calendars, now }));
        await finishProviderSync(deps, { row, now, window: reexpand ? window : null, hostZone: host.zone });
      },
    });
  } catch (err) {
    const reauthMessage = `${MICROSOFT_NEEDS_REAUTH_MESSAGE} (${err instanceof Error ? err.message : String(err)})`;
    return providerSyncFailed(deps, {
      row,
      now,
      interval,
      err,
      reauthMessage,
      needsReauth: () => markNeedsReauthAndEmail(deps, { row, now, interval, message: reauthMessage }),
    });
  }
  // The workflow's details (operators): the provider and account (never a token) and the first subscription's expiry.
  const expires = await firstPushExpiry(db, row.id);
  return { outcome: 'ok', message: `microsoft ${row.account_email ?? ''}, subscription expiry ${expires}`, nextSyncMs };
}

type Window = { from: number; to: number; horizonEnd: number };

/** Every page of a round, from its first request or a stored link, to the deltaLink. */
async function readRound(api: MicrosoftGraphApi, start: { calendarId: string; from: string; to: string } | { link: string }) {
  const byId = new Map<string, EventTimes>();
  let page = await api.deltaPage(start);
  for (;;) {
    // The same event may come twice in a round (changed meanwhile): the last one counts.
    for (const e of page.events) byId.set(e.id, graphEventTimes(e));
    if (!page.nextLink) return { events: [...byId.values()], deltaLink: page.deltaLink ?? null };
    page = await api.deltaPage({ link: page.nextLink });
  }
}

/** A new round is due: none yet, the window start moved by a day, or the horizon grew past the round's end. */
const restartDue = (cal: CalendarRow, w: Window) =>
  !cal.sync_token ||
  !cal.delta_from ||
  !cal.delta_until ||
  w.from - new Date(cal.delta_from).getTime() >= DAY ||
  new Date(cal.delta_until).getTime() < w.horizonEnd;

async function syncCalendar(
  deps: Deps,
  input: { row: ConnectionRow; cal: CalendarRow; api: MicrosoftGraphApi; window: Window; zone: string; now: number },
): Promise<void> {
  const { row, cal, api, window: w, now } = input;
  const fresh = { calendarId: cal.url, from: new Date(w.from).toISOString(), to: new Date(w.to).toISOString() };
  let full = restartDue(cal, w);
  let read;
  if (full) read = await readRound(api, fresh);
  else {
    try {
      read = await readRound(api, { link: cal.sync_token! });
    } catch (err) {
      if (!(err instanceof CalendarSyncStateGoneError)) throw err;
      logger.info(
        { connectionId: row.id, calendarId: cal.id, reason: err.message },
        'Microsoft 365: delta state gone (410), reading in full',
      );
      full = true;
      read = await readRound(api, fresh);
    }
  }
  const cursor = full
    ? { sync_token: read.deltaLink, delta_from: new Date(w.from), delta_until: new Date(w.to) }
    : { sync_token: read.deltaLink ?? cal.sync_token };
  await storeCalendarEvents(deps, {
    row,
    cal,
    events: read.events,
    full,
    cursor,
    range: { from: w.from, to: w.to, zone: input.zone, now },
  });
}
