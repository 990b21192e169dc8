import {
  GoogleSyncTokenGoneError,
  type GoogleCalendarApi,
  type GoogleCalendarEntry,
  type GoogleEvent,
} from '../../core/calendars/google-api';
import { logger } from '../../core/logger';
import type { Mailer } from '../../core/mailer';
import { minimizeGoogleEvent } from '../../domain/calendars/google-busy';
import type { ServiceDeps } from '../deps';
import {
  finishProviderSync,
  firstPushExpiry,
  providerSyncFailed,
  saveProviderCalendars,
  storeCalendarEvents,
  type Range,
} from './event-store';
import { ensureGoogleChannels, teardownGoogle } from './google-channels';
import { emailHostSoon, markNeedsReauthAndEmail, NEEDS_REAUTH_MESSAGE } from './calendar-reauth';
import { withGoogleApi } from './google-tokens';
import type { CalendarRow, ConnectionRow } from './rows';
import type { SyncResult } from './sync-result';
import { hostZoneAndEmails, syncIntervalMs, syncWindow } from './window';

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
 * retry after Retry-After. A window that moved re-derives busy time from the stored events.
 */
type Deps = Pick<ServiceDeps, 'db' | 'config'> & { mailer?: Mailer };

export { NEEDS_REAUTH_MESSAGE };

export async function syncGoogleConnection(deps: Deps, input: { row: ConnectionRow; now: number }): Promise<SyncResult> {
  const { db, config } = deps;
  const { row, now } = input;
  const interval = syncIntervalMs(config.CALENDAR_SYNC_INTERVAL);
  if (row.status === 'disconnecting') {
    await teardownGoogle(deps, row);
    return { outcome: 'gone', message: null, nextSyncMs: interval };
  }
  if (row.status === 'needs_reauth') {
    await emailHostSoon(deps, { connectionId: row.id }); // a no-op once sent
    return { outcome: 'error', message: row.status_message ?? NEEDS_REAUTH_MESSAGE, nextSyncMs: interval };
  }
  let nextSyncMs = interval;
  try {
    await withGoogleApi(deps, {
      connectionId: row.id,
      run: async (api) => {
        const calendars = await saveCalendars(db, row, await api.calendarList());
        const window = await syncWindow(db, { userId: row.user_id, now });
        const host = await hostZoneAndEmails(db, row.user_id);
        const reexpand = !row.expanded_until || row.expanded_until.getTime() < window.horizonEnd;
        for (const cal of calendars.filter((c) => c.check_conflicts)) {
          await syncCalendar(deps, row, cal, api, { from: window.from, to: window.to, zone: cal.timezone ?? host.zone, now });
        }
        nextSyncMs = Math.min(interval, await ensureGoogleChannels(deps, { row, api, calendars, now }));
        await finishProviderSync(deps, { row, now, window: reexpand ? window : null, hostZone: host.zone });
      },
    });
  } catch (err) {
    return providerSyncFailed(deps, {
      row,
      now,
      interval,
      err,
      reauthMessage: NEEDS_REAUTH_MESSAGE,
      needsReauth: () => markNeedsReauthAndEmail(deps, { row, now, interval }),
    });
  }
  // The workflow's details (operators): the provider and account (never a token) and when the first channel expires.
  const expires = await firstPushExpiry(db, row.id);
  return { outcome: 'ok', message: `google ${row.account_email ?? ''}, push channel expiry ${expires}`, nextSyncMs };
}

async function saveCalendars(db: Deps['db'], row: ConnectionRow, list: GoogleCalendarEntry[]): Promise<CalendarRow[]> {
  return saveProviderCalendars(db, {
    row,
    list: list.map((c) => ({
      remoteId: c.id,
      name: c.summaryOverride || c.summary || c.id,
      color: c.backgroundColor ?? null,
      timezone: c.timeZone ?? null,
      readOnly: !(c.accessRole === 'owner' || c.accessRole === 'writer'),
    })),
  });
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

async function syncCalendar(deps: Deps, row: ConnectionRow, cal: CalendarRow, api: GoogleCalendarApi, r: Range): Promise<void> {
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
