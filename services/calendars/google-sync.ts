import { uuid } from '../../core/crypto';
import {
  GoogleGrantError,
  GooglePermanentError,
  GoogleRateLimitedError,
  GoogleSyncTokenGoneError,
  GoogleUnauthorizedError,
  GoogleUnavailableError,
  type GoogleCalendarApi,
  type GoogleCalendarEntry,
  type GoogleEvent,
} from '../../core/calendars/google-api';
import { logger } from '../../core/logger';
import type { Mailer } from '../../core/mailer';
import { googleEventBusy, minimizeGoogleEvent, type GoogleEventTimes } from '../../domain/calendars/google-busy';
import type { Executor } from '../../db/knex';
import type { ServiceDeps } from '../deps';
import { ownBookingUids } from './busy';
import { ensureGoogleChannels, teardownGoogle } from './google-channels';
import { emailHostSoon, markGoogleNeedsReauth, NEEDS_REAUTH_MESSAGE } from './google-reauth';
import { withGoogleApi } from './google-tokens';
import type { CalendarRow, ConnectionRow } from './rows';
import type { SyncResult } from './sync-result';
import { refreshUserBusy } from './user-busy';
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
        await db.transaction(async (trx) => {
          const locked = await trx('calendar_connections').where({ id: row.id }).forUpdate().first('status');
          if (!locked || locked.status === 'disconnecting' || locked.status === 'needs_reauth') return;
          if (reexpand) await reexpandAll(trx, row, { from: window.from, to: window.to, hostZone: host.zone });
          await refreshCounts(trx, row, now, reexpand ? window : null);
          await refreshUserBusy(trx, [row.user_id]);
        });
      },
    });
  } catch (err) {
    if (err instanceof GoogleGrantError || err instanceof GoogleUnauthorizedError) return needsReauth(deps, row, now, interval);
    if (err instanceof GoogleRateLimitedError) throw err;
    if (err instanceof GooglePermanentError || err instanceof GoogleUnavailableError) {
      logger.warn({ connectionId: row.id, reason: err.message }, 'Google Calendar sync failed');
      await db('calendar_connections')
        .where({ id: row.id })
        .whereNotIn('status', ['disconnecting', 'needs_reauth'])
        .update({ status: 'error', status_message: err.message, last_error_at: new Date(now), updated_at: db.fn.now() });
      return { outcome: 'error', message: err.message, nextSyncMs: interval };
    }
    throw err;
  }
  // The workflow's details (operators): the provider and account (never a token) and when the first channel expires.
  const ch = await db('calendar_push_channels')
    .where({ connection_id: row.id })
    .min<{ first: Date | null }>({ first: 'expires_at' })
    .first();
  const expires = ch?.first ? new Date(ch.first).toISOString().replace(/\.\d{3}Z$/, 'Z') : 'none';
  return { outcome: 'ok', message: `google ${row.account_email ?? ''}, push channel expiry ${expires}`, nextSyncMs };
}

/** The grant is dead: the connection shows it, its host offers no times until it is connected again, and is emailed once. */
async function needsReauth(deps: Deps, row: ConnectionRow, now: number, interval: number): Promise<SyncResult> {
  await markGoogleNeedsReauth(deps, { row, now });
  return { outcome: 'error', message: NEEDS_REAUTH_MESSAGE, nextSyncMs: interval };
}

async function saveCalendars(db: Executor, row: ConnectionRow, list: GoogleCalendarEntry[]): Promise<CalendarRow[]> {
  const existing = (await db('calendar_connection_calendars').where({ connection_id: row.id })) as CalendarRow[];
  const byUrl = new Map(existing.map((c) => [c.url, c]));
  const seen = new Set(list.map((c) => c.id));
  await db.transaction(async (trx) => {
    const gone = existing.filter((c) => !seen.has(c.url)).map((c) => c.id);
    if (gone.length) await trx('calendar_connection_calendars').whereIn('id', gone).delete();
    for (const c of list) {
      const meta = {
        display_name: (c.summaryOverride || c.summary || c.id).slice(0, 200),
        color: c.backgroundColor ?? null,
        timezone: c.timeZone ?? null,
        read_only: !(c.accessRole === 'owner' || c.accessRole === 'writer'),
      };
      const known = byUrl.get(c.id);
      if (known) await trx('calendar_connection_calendars').where({ id: known.id }).update(meta);
      else
        await trx('calendar_connection_calendars').insert({
          id: uuid(),
          connection_id: row.id,
          team_id: row.team_id,
          user_id: row.user_id,
          url: c.id,
          supports_sync: true,
          // Calendars the account only sees free/busy of block too; the host unticks what they do not want.
          check_conflicts: true,
          ...meta,
        });
    }
  });
  return (await db('calendar_connection_calendars').where({ connection_id: row.id })) as CalendarRow[];
}

const hrefOf = (cal: CalendarRow, eventId: string) => `${cal.id}/${eventId}`;

interface Range {
  from: number;
  to: number;
  zone: string;
  now: number;
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
  const { db } = deps;
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
  const own = await ownBookingUids(db, { teamId: row.team_id, uids: read.events.flatMap((e) => (e.iCalUID ? [e.iCalUID] : [])) });
  await db.transaction(async (trx) => {
    const locked = await trx('calendar_connections').where({ id: row.id }).forUpdate().first('status');
    if (!locked || locked.status === 'disconnecting') return;
    if (full) {
      await trx('calendar_busy_times').where({ calendar_id: cal.id }).delete();
      await trx('calendar_objects').where({ calendar_id: cal.id }).delete();
    }
    const hrefs = read.events.map((e) => hrefOf(cal, e.id));
    if (hrefs.length) {
      await trx('calendar_busy_times').where({ connection_id: row.id }).whereRaw('object_href = ANY(?::text[])', [hrefs]).delete();
      const gone = read.events.filter((e) => e.status === 'cancelled').map((e) => hrefOf(cal, e.id));
      if (gone.length) await trx('calendar_objects').where({ connection_id: row.id }).whereRaw('href = ANY(?::text[])', [gone]).delete();
    }
    const kept = read.events.filter((e) => e.status !== 'cancelled');
    for (let i = 0; i < kept.length; i += 500) {
      await trx('calendar_objects')
        .insert(
          kept.slice(i, i + 500).map((e) => ({
            connection_id: row.id,
            calendar_id: cal.id,
            team_id: row.team_id,
            user_id: row.user_id,
            href: hrefOf(cal, e.id),
            etag: null,
            data: JSON.stringify(minimizeGoogleEvent(e)),
            updated_at: new Date(r.now),
          })),
        )
        .onConflict(['connection_id', 'href'])
        .merge(['data', 'updated_at']);
    }
    const busy = kept.filter((e) => !(e.iCalUID && own.has(e.iCalUID)));
    await insertBusy(trx, row, cal, busy, r);
    const [{ n }] = await trx('calendar_objects').where({ calendar_id: cal.id }).count<{ n: number }[]>({ n: '*' });
    await trx('calendar_connection_calendars')
      .where({ id: cal.id })
      .update({ sync_token: read.nextSyncToken, last_synced_at: new Date(r.now), event_count: Number(n), updated_at: trx.fn.now() });
  });
}

async function insertBusy(trx: Executor, row: ConnectionRow, cal: CalendarRow, events: GoogleEventTimes[], r: Omit<Range, 'now'>) {
  const rows = events.flatMap((e) => {
    const b = googleEventBusy(e, r.zone);
    if (!b || b.end <= r.from || b.start >= r.to) return [];
    return [
      {
        connection_id: row.id,
        calendar_id: cal.id,
        team_id: row.team_id,
        user_id: row.user_id,
        object_href: hrefOf(cal, e.id),
        uid: (e.iCalUID ?? e.id).slice(0, 500),
        start_time: new Date(b.start),
        end_time: new Date(b.end),
      },
    ];
  });
  for (let i = 0; i < rows.length; i += 1000) await trx('calendar_busy_times').insert(rows.slice(i, i + 1000));
}

/** The window moved: busy time again from every stored event (no request to Google). */
async function reexpandAll(trx: Executor, row: ConnectionRow, w: { from: number; to: number; hostZone: string }): Promise<void> {
  const cals = (await trx('calendar_connection_calendars').where({ connection_id: row.id })) as CalendarRow[];
  await trx('calendar_busy_times').where({ connection_id: row.id }).delete();
  const stored = (await trx('calendar_objects').where({ connection_id: row.id }).select('calendar_id', 'data')) as Array<{
    calendar_id: string;
    data: string;
  }>;
  const own = await ownBookingUids(trx, {
    teamId: row.team_id,
    uids: stored.flatMap((o) => {
      const uid = (JSON.parse(o.data) as GoogleEventTimes).iCalUID;
      return uid ? [uid] : [];
    }),
  });
  for (const cal of cals) {
    const events = stored
      .filter((o) => o.calendar_id === cal.id)
      .map((o) => JSON.parse(o.data) as GoogleEventTimes)
      .filter((e) => !(e.iCalUID && own.has(e.iCalUID)));
    await insertBusy(trx, row, cal, events, { from: w.from, to: w.to, zone: cal.timezone ?? w.hostZone });
  }
}

async function refreshCounts(trx: Executor, row: ConnectionRow, now: number, window: { from: number; to: number } | null): Promise<void> {
  const [{ busy }] = await trx('calendar_busy_times').where({ connection_id: row.id }).count<{ busy: number }[]>({ busy: '*' });
  const [{ events }] = await trx('calendar_objects').where({ connection_id: row.id }).count<{ events: number }[]>({ events: '*' });
  await trx('calendar_connections')
    .where({ id: row.id })
    .update({
      status: 'ok',
      status_message: null,
      last_synced_at: new Date(now),
      last_read_at: new Date(now),
      event_count: Number(events),
      busy_count: Number(busy),
      ...(window ? { expanded_from: new Date(window.from), expanded_until: new Date(window.to) } : {}),
      updated_at: trx.fn.now(),
    });
}
