import {
  GoogleSyncTokenGoneError,
  type GoogleCalendarApi,
  type GoogleCalendarEntry,
  type GoogleEvent,
} from '../../core/calendars/google-api';
import { logger } from '../../core/logger';
import { minimizeGoogleEvent } from '../../domain/calendars/google-busy';
import { storeCalendarEvents, type Range } from './event-store';
import { ensureGoogleChannels, teardownGoogle } from './google-channels';
import { NEEDS_REAUTH_MESSAGE } from './calendar-reauth';
import { syncProviderConnection, type ProviderSync, type ProviderSyncDeps, type SyncWindow } from './provider-sync';
import { withGoogleApi } from './google-tokens';
import type { CalendarRow, ConnectionRow } from './rows';
import type { SyncResult } from './sync-result';

/**
 * One sync of a Google connection (docs/calendars.md "Google Calendar"), in the connection's
 * `calendar-sync-<id>` workflow, woken by the interval, "sync now" or a push notification:
 * 1. the calendar list (calendarList.list) is saved: new calendars check conflicts, gone ones go;
 * 2. each calendar checked for conflicts is read with events.list from its stored `syncToken` (only
 *    what changed; deleted events come back `cancelled`), or in full from a day ago when there is none;
 *    a 410 (`fullSyncRequired`) wipes that calendar's stored events and busy time and reads it in full;
 * 3. the events are stored (trimmed: times, status, transparency, the host's answer) and their busy time
 *    replaces what they gave before, the host's merged busy time is rewritten, `last_read_at` is set;
 * 4. each checked calendar has a live push channel (events.watch), renewed before it expires.
 * `invalid_grant`, or a 401 that survives a refresh, marks the connection `needs_reauth` (its host then
 * offers no times). A 429 or a rate-limit 403 is thrown (GoogleRateLimitedError) for the activity to
 * retry after Retry-After. A window that moved re-derives busy time from the stored events. The steps
 * every provider shares (the list saved, the calendars read, the push, the failures) are provider-sync.ts.
 */
type Deps = ProviderSyncDeps;

const google: ProviderSync<GoogleCalendarApi> = {
  name: 'google',
  pushName: 'push channel',
  reauthMessage: () => NEEDS_REAUTH_MESSAGE,
  teardown: teardownGoogle,
  withApi: withGoogleApi,
  calendars: async (api) =>
    (await api.calendarList()).map((c: GoogleCalendarEntry) => ({
      remoteId: c.id,
      name: c.summaryOverride || c.summary || c.id,
      color: c.backgroundColor ?? null,
      timezone: c.timeZone ?? null,
      readOnly: !(c.accessRole === 'owner' || c.accessRole === 'writer'),
    })),
  syncCalendar,
  ensurePush: ensureGoogleChannels,
};

export function syncGoogleConnection(deps: Deps, input: { row: ConnectionRow; now: number }): Promise<SyncResult> {
  return syncProviderConnection(deps, { ...input, provider: google });
}

async function readEvents(api: GoogleCalendarApi, cal: CalendarRow, syncToken: string | null, from: number) {
  const events: GoogleEvent[] = [];
  let pageToken: string | undefined;
  for (;;) {
    const page = await api.eventsPage(cal.url, { syncToken, pageToken, timeMin: new Date(from).toISOString() });
    events.push(...page.items);
    if (page.nextPageToken) pageToken = page.nextPageToken;
    else return { events, nextSyncToken: page.nextSyncToken ?? null };
  }
}

async function syncCalendar(
  deps: Deps,
  input: { row: ConnectionRow; cal: CalendarRow; api: GoogleCalendarApi; window: SyncWindow; zone: string; now: number },
): Promise<void> {
  const { row, cal, api, window, zone, now } = input;
  const r: Range = { from: window.from, to: window.to, zone, now };
  let full = !cal.sync_token;
  let read;
  try {
    read = await readEvents(api, cal, cal.sync_token, r.from);
  } catch (err) {
    if (!(err instanceof GoogleSyncTokenGoneError)) throw err;
    logger.info({ connectionId: row.id, calendarId: cal.id }, 'Google Calendar: sync token expired (410), reading the calendar in full');
    full = true;
    read = await readEvents(api, cal, null, r.from);
  }
  await storeCalendarEvents(deps, {
    row,
    cal,
    events: read.events.map(minimizeGoogleEvent),
    full,
    cursor: { sync_token: read.nextSyncToken },
    range: r,
  });
}
