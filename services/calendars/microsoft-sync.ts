import type { MicrosoftGraphApi } from '../../core/calendars/microsoft-api';
import { CalendarSyncStateGoneError } from '../../core/calendars/provider-http';
import { logger } from '../../core/logger';
import type { EventTimes } from '../../domain/calendars/event-busy';
import { graphEventTimes } from '../../domain/calendars/microsoft-busy';
import { MICROSOFT_NEEDS_REAUTH_MESSAGE } from './calendar-reauth';
import { storeCalendarEvents } from './event-store';
import { ensureMicrosoftSubscriptions, teardownMicrosoft } from './microsoft-subscriptions';
import { withMicrosoftApi } from './microsoft-tokens';
import type { CalendarRow, ConnectionRow } from './rows';
import type { SyncResult } from './sync-result';
import { syncProviderConnection, type ProviderSync, type ProviderSyncDeps, type SyncWindow } from './provider-sync';

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
type Deps = ProviderSyncDeps;
type Window = SyncWindow;

const DAY = 86_400_000;

const microsoft: ProviderSync<MicrosoftGraphApi> = {
  name: 'microsoft',
  pushName: 'subscription',
  reauthMessage: (err) =>
    err ? `${MICROSOFT_NEEDS_REAUTH_MESSAGE} (${err instanceof Error ? err.message : String(err)})` : MICROSOFT_NEEDS_REAUTH_MESSAGE,
  teardown: teardownMicrosoft,
  withApi: withMicrosoftApi,
  calendars: async (api) =>
    (await api.calendars()).map((c) => ({
      remoteId: c.id,
      name: c.name || c.id,
      color: c.hexColor || null,
      timezone: null,
      readOnly: !c.canEdit,
    })),
  syncCalendar,
  ensurePush: ensureMicrosoftSubscriptions,
};

export function syncMicrosoftConnection(deps: Deps, input: { row: ConnectionRow; now: number }): Promise<SyncResult> {
  return syncProviderConnection(deps, { ...input, provider: microsoft });
}

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
