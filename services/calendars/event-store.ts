import {
  CalendarGrantError,
  CalendarPermanentError,
  CalendarRateLimitedError,
  CalendarUnauthorizedError,
  CalendarUnavailableError,
} from '../../core/calendars/provider-http';
import { uuid } from '../../core/crypto';
import { logger } from '../../core/logger';
import { eventBusy, type EventTimes } from '../../domain/calendars/event-busy';
import type { Executor } from '../../db/knex';
import type { ServiceDeps } from '../deps';
import { ownBookingUids } from './busy';
import type { CalendarRow, ConnectionRow } from './rows';
import type { SyncResult } from './sync-result';
import { refreshUserBusy } from './user-busy';

/**
 * What the syncs of provider calendars read through an API (Google, Microsoft; docs/calendars.md)
 * share: the calendar list saved, a calendar's changed events stored (trimmed, in event-busy.ts's
 * shape) with their busy time, the window re-derived from stored events, the counts, and the
 * needs_reauth and error states. The provider's own sync reads; this writes.
 */
type Deps = Pick<ServiceDeps, 'db'>;

/** One calendar of the provider's list. */
export interface ProviderCalendar {
  remoteId: string;
  name: string;
  color: string | null;
  timezone: string | null;
  readOnly: boolean;
}

/** Save the calendar list: new calendars check conflicts, ones gone from the list go with their busy time. */
export async function saveProviderCalendars(db: Executor, input: { row: ConnectionRow; list: ProviderCalendar[] }): Promise<CalendarRow[]> {
  const { row, list } = input;
  const existing = (await db('calendar_connection_calendars').where({ connection_id: row.id })) as CalendarRow[];
  const byUrl = new Map(existing.map((c) => [c.url, c]));
  const seen = new Set(list.map((c) => c.remoteId));
  await db.transaction(async (trx) => {
    const gone = existing.filter((c) => !seen.has(c.url)).map((c) => c.id);
    if (gone.length) await trx('calendar_connection_calendars').whereIn('id', gone).delete();
    for (const c of list) {
      const meta = { display_name: c.name.slice(0, 200), color: c.color, timezone: c.timezone, read_only: c.readOnly };
      const known = byUrl.get(c.remoteId);
      if (known) await trx('calendar_connection_calendars').where({ id: known.id }).update(meta);
      else
        await trx('calendar_connection_calendars').insert({
          id: uuid(),
          connection_id: row.id,
          team_id: row.team_id,
          user_id: row.user_id,
          url: c.remoteId,
          supports_sync: true,
          // Calendars the account only reads block too; the host unticks what they do not want.
          check_conflicts: true,
          ...meta,
        });
    }
  });
  return (await db('calendar_connection_calendars').where({ connection_id: row.id })) as CalendarRow[];
}

export interface Range {
  from: number;
  to: number;
  zone: string;
  now: number;
}

const hrefOf = (cal: CalendarRow, eventId: string) => `${cal.id}/${eventId}`;

/**
 * Store what a read of one calendar found, in one transaction: on a full read the calendar's stored
 * events and busy time are wiped first; each changed event replaces its busy time; `cancelled` ones go;
 * `cursor` (the sync token or deltaLink, and the like) is saved on the calendar with the read's time.
 */
export async function storeCalendarEvents(
  deps: Deps,
  input: { row: ConnectionRow; cal: CalendarRow; events: EventTimes[]; full: boolean; cursor: Partial<CalendarRow>; range: Range },
): Promise<void> {
  const { db } = deps;
  const { row, cal, events, full, range: r } = input;
  const own = await ownBookingUids(db, { teamId: row.team_id, uids: events.flatMap((e) => (e.iCalUID ? [e.iCalUID] : [])) });
  await db.transaction(async (trx) => {
    const locked = await trx('calendar_connections').where({ id: row.id }).forUpdate().first('status');
    if (!locked || locked.status === 'disconnecting') return;
    if (full) {
      await trx('calendar_busy_times').where({ calendar_id: cal.id }).delete();
      await trx('calendar_objects').where({ calendar_id: cal.id }).delete();
    }
    const hrefs = events.map((e) => hrefOf(cal, e.id));
    if (hrefs.length) {
      await trx('calendar_busy_times').where({ connection_id: row.id }).whereRaw('object_href = ANY(?::text[])', [hrefs]).delete();
      const gone = events.filter((e) => e.status === 'cancelled').map((e) => hrefOf(cal, e.id));
      if (gone.length) await trx('calendar_objects').where({ connection_id: row.id }).whereRaw('href = ANY(?::text[])', [gone]).delete();
    }
    const kept = events.filter((e) => e.status !== 'cancelled');
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
            data: JSON.stringify(e),
            updated_at: new Date(r.now),
          })),
        )
        .onConflict(['connection_id', 'href'])
        .merge(['data', 'updated_at']);
    }
    await insertBusy(
      trx,
      row,
      cal,
      kept.filter((e) => !(e.iCalUID && own.has(e.iCalUID))),
      r,
    );
    const [{ n }] = await trx('calendar_objects').where({ calendar_id: cal.id }).count<{ n: number }[]>({ n: '*' });
    await trx('calendar_connection_calendars')
      .where({ id: cal.id })
      .update({ ...input.cursor, last_synced_at: new Date(r.now), event_count: Number(n), updated_at: trx.fn.now() });
  });
}

async function insertBusy(trx: Executor, row: ConnectionRow, cal: CalendarRow, events: EventTimes[], r: Omit<Range, 'now'>) {
  const rows = events.flatMap((e) => {
    const b = eventBusy(e, r.zone);
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

/** The window moved: busy time again from every stored event (no request to the provider). */
async function reexpandAll(trx: Executor, row: ConnectionRow, w: { from: number; to: number; hostZone: string }): Promise<void> {
  const cals = (await trx('calendar_connection_calendars').where({ connection_id: row.id })) as CalendarRow[];
  await trx('calendar_busy_times').where({ connection_id: row.id }).delete();
  const stored = (await trx('calendar_objects').where({ connection_id: row.id }).select('calendar_id', 'data')) as Array<{
    calendar_id: string;
    data: string;
  }>;
  const events = stored.map((o) => ({ calendarId: o.calendar_id, e: JSON.parse(o.data) as EventTimes }));
  const own = await ownBookingUids(trx, { teamId: row.team_id, uids: events.flatMap(({ e }) => (e.iCalUID ? [e.iCalUID] : [])) });
  for (const cal of cals) {
    const mine = events.filter((o) => o.calendarId === cal.id && !(o.e.iCalUID && own.has(o.e.iCalUID))).map((o) => o.e);
    await insertBusy(trx, row, cal, mine, { from: w.from, to: w.to, zone: cal.timezone ?? w.hostZone });
  }
}

/**
 * The end of a good sync, in one transaction (unless the connection was disconnected or lost its grant
 * meanwhile): the window re-derived when it moved, the counts, `ok`, `last_read_at`, the host's merged busy time.
 */
export async function finishProviderSync(
  deps: Deps,
  input: { row: ConnectionRow; now: number; window: { from: number; to: number } | null; hostZone: string },
): Promise<void> {
  const { row, now, window } = input;
  await deps.db.transaction(async (trx) => {
    const locked = await trx('calendar_connections').where({ id: row.id }).forUpdate().first('status');
    if (!locked || locked.status === 'disconnecting' || locked.status === 'needs_reauth') return;
    if (window) await reexpandAll(trx, row, { ...window, hostZone: input.hostZone });
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
    await refreshUserBusy(trx, [row.user_id]);
  });
}

/** The grant is dead: the connection shows it, and its host offers no times until it is connected again. */
export async function markNeedsReauth(
  deps: Deps,
  input: { row: Pick<ConnectionRow, 'id' | 'team_id' | 'user_id' | 'kind'>; now: number; interval: number; message: string },
): Promise<SyncResult> {
  const { row, now, message } = input;
  logger.warn({ connectionId: row.id, teamId: row.team_id, kind: row.kind }, 'calendar connection needs to be connected again');
  await deps.db.transaction(async (trx) => {
    await trx('calendar_connections')
      .where({ id: row.id })
      .whereNot({ status: 'disconnecting' })
      .update({ status: 'needs_reauth', status_message: message, last_error_at: new Date(now), updated_at: trx.fn.now() });
    await refreshUserBusy(trx, [row.user_id]);
  });
  return { outcome: 'error', message, nextSyncMs: input.interval };
}

/** A provider failure that is not the grant's: `error` with the reason (the next interval tries again). */
export async function markSyncError(
  deps: Deps,
  input: { row: Pick<ConnectionRow, 'id' | 'team_id' | 'user_id' | 'kind'>; now: number; interval: number; message: string },
): Promise<SyncResult> {
  const { db } = deps;
  const { row, now, message } = input;
  logger.warn({ connectionId: row.id, kind: row.kind, reason: message }, 'calendar sync failed');
  await db('calendar_connections')
    .where({ id: row.id })
    .whereNotIn('status', ['disconnecting', 'needs_reauth'])
    .update({ status: 'error', status_message: message, last_error_at: new Date(now), updated_at: db.fn.now() });
  return { outcome: 'error', message, nextSyncMs: input.interval };
}

/** For the workflow's details (operators): when the connection's first push channel or subscription expires. */
export async function firstPushExpiry(db: Executor, connectionId: string): Promise<string> {
  const ch = await db('calendar_push_channels')
    .where({ connection_id: connectionId })
    .min<{ first: Date | null }>({ first: 'expires_at' })
    .first();
  return ch?.first ? new Date(ch.first).toISOString().replace(/\.\d{3}Z$/, 'Z') : 'none';
}

/**
 * A provider sync that threw: a dead grant (or a 401 that survived a refresh) → needs_reauth; throttling
 * is rethrown for the activity's nextRetryDelay; other provider failures → `error`; anything else rethrown.
 */
export async function providerSyncFailed(
  deps: Deps,
  input: {
    row: ConnectionRow;
    now: number;
    interval: number;
    err: unknown;
    reauthMessage: string;
    /** How the provider marks a dead grant, when it does more than markNeedsReauth (Google emails the host). */
    needsReauth?: () => Promise<SyncResult>;
  },
): Promise<SyncResult> {
  const { err, needsReauth, ...rest } = input;
  if (err instanceof CalendarGrantError || err instanceof CalendarUnauthorizedError)
    return needsReauth ? needsReauth() : markNeedsReauth(deps, { ...rest, message: input.reauthMessage });
  if (err instanceof CalendarRateLimitedError) throw err;
  if (err instanceof CalendarPermanentError || err instanceof CalendarUnavailableError)
    return markSyncError(deps, { ...rest, message: err.message });
  throw err;
}
