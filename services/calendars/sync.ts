import { webhookUrlPolicy } from '../../core/config';
import { uuid } from '../../core/crypto';
import { logger } from '../../core/logger';
import { minimizeIcs } from '../../domain/calendars/minimize';
import type { Db, Executor } from '../../db/knex';
import { jsonb } from '../../db/jsonb';
import type { ServiceDeps } from '../deps';
import { expandObjects, ownBookingUids, type BusyRow, type StoredObject } from './busy';
import {
  caldavClient,
  discoverHome,
  explainCaldavFailure,
  listCalendars,
  readChanges,
  unchanged,
  type CalendarChanges,
  type RemoteCalendar,
} from './caldav-read';
import { fetchFeed } from './ics-feed';
import { syncGoogleConnection } from './google-sync';
import type { Mailer } from '../../core/mailer';
import { syncMicrosoftConnection } from './microsoft-sync';
import { RemoteFetchError } from '../../core/outbound-http';
import { FEED_HREF, type CalendarRow, type ConnectionRow } from './rows';
import { openCredentials, calendarSecretBox, type CalendarCredentials } from './secrets';
import { connectionSkipped, saveObjectSkipped, skippedSentence, type ConnectionSkipped } from './skipped';
import { SyncFailure } from './sync-failure';
import type { SyncResult } from './sync-result';
import { refreshUserBusy } from './user-busy';
import { hostZoneAndEmails, syncIntervalMs, syncWindow } from './window';

/**
 * One sync of one connection (the activity of `calendar-sync-<id>` calls it): read what changed on
 * the remote side first, then apply it in one transaction. A failure while reading changes nothing
 * cached: the connection only shows `error` and a human status_message. Busy time is expanded for
 * the window of syncWindow(); when that window has moved past what was expanded, every stored
 * object is expanded again (no remote request needed: objects are stored, trimmed).
 */

export type { SyncResult } from './sync-result';

/** The mailer (the worker's) sends the one email about a Google or Microsoft connection to connect again (calendar-reauth.ts). */
type SyncDeps = Pick<ServiceDeps, 'db' | 'config'> & { mailer?: Mailer };

interface CalendarPlan {
  id: string;
  isNew: boolean;
  remote: RemoteCalendar;
  changes: CalendarChanges | null;
}

interface Plan {
  homeUrl: string | null;
  calendars: CalendarPlan[];
  /** Objects to store (minimized), with the calendar they belong to. */
  upserts: Array<StoredObject & { etag: string | null }>;
  /** (calendar, href) pairs whose stored object is gone. */
  removals: Array<{ calendarId: string | null; href: string }>;
  feed: { etag: string | null; lastModified: string | null } | null;
}

class Gone extends Error {}

export async function syncConnection(deps: SyncDeps, input: { connectionId: string; now?: number }): Promise<SyncResult> {
  const { connectionId, now = Date.now() } = input;
  const nextSyncMs = syncIntervalMs(deps.config.CALENDAR_SYNC_INTERVAL);
  const row = (await deps.db('calendar_connections').where({ id: connectionId }).first()) as ConnectionRow | undefined;
  if (!row) return { outcome: 'gone', message: null, nextSyncMs };
  if (row.kind === 'google') return syncGoogleConnection(deps, { row, now });
  if (row.kind === 'microsoft') return syncMicrosoftConnection(deps, { row, now });
  let creds: CalendarCredentials;
  try {
    creds = openCredentials(calendarSecretBox(deps.config), row.id, row.credentials_enc);
  } catch {
    const message = 'the stored credentials could not be decrypted (was CALENDAR_CREDENTIALS_KEY changed?); connect the calendar again';
    return failed(deps.db, row, message, nextSyncMs, now);
  }

  let plan: Plan;
  try {
    if (creds.kind === 'google' || creds.kind === 'microsoft') throw new SyncFailure('not a CalDAV or feed connection');
    plan = creds.kind === 'caldav' ? await planCaldav(deps, row, creds) : await planFeed(deps, row, creds.url);
  } catch (err) {
    if (err instanceof SyncFailure || err instanceof RemoteFetchError) return failed(deps.db, row, err.message, nextSyncMs, now);
    throw err;
  }

  let parts: ConnectionSkipped;
  try {
    parts = await apply(deps, row, creds, plan, now);
  } catch (err) {
    if (err instanceof Gone) return { outcome: 'gone', message: null, nextSyncMs };
    if (err instanceof SyncFailure) return failed(deps.db, row, err.message, nextSyncMs, now);
    throw err;
  }
  // An ok sync's message says what it skipped (the workflow's details show it to operators).
  return { outcome: 'ok', message: skippedSentence(parts), nextSyncMs };
}

async function failed(db: Db, row: ConnectionRow, message: string, nextSyncMs: number, now: number): Promise<SyncResult> {
  logger.warn({ connectionId: row.id, teamId: row.team_id, kind: row.kind, reason: message }, 'calendar sync failed');
  const n = await db('calendar_connections')
    .where({ id: row.id })
    .update({ status: 'error', status_message: message, last_error_at: new Date(now), updated_at: db.fn.now() });
  return { outcome: n ? 'error' : 'gone', message, nextSyncMs };
}

/** The CalDAV side: the calendar list (discovery again when the stored home stops answering), then each calendar's changes. */
async function planCaldav(deps: SyncDeps, row: ConnectionRow, creds: Extract<CalendarCredentials, { kind: 'caldav' }>): Promise<Plan> {
  const c = caldavClient(creds, webhookUrlPolicy(deps.config));
  try {
    let home = row.home_url;
    let remote: RemoteCalendar[] | null = null;
    if (home) {
      try {
        remote = await listCalendars(c, home);
      } catch (err) {
        if (err instanceof RemoteFetchError) throw err;
        remote = null; // the home moved: discover it again
      }
    }
    if (!remote || !home) {
      home = await discoverHome(c);
      remote = await listCalendars(c, home);
    }
    const existing = (await deps.db('calendar_connection_calendars').where({ connection_id: row.id })) as CalendarRow[];
    const byUrl = new Map(existing.map((r) => [r.url, r]));
    const calendars: CalendarPlan[] = [];
    const upserts: Plan['upserts'] = [];
    const removals: Plan['removals'] = [];
    for (const cal of remote) {
      const known = byUrl.get(cal.url);
      const state = { syncToken: known?.sync_token ?? null, ctag: known?.ctag ?? null };
      // The stored ETags are read only for a calendar that changed.
      const changes =
        known && unchanged(cal, state)
          ? null
          : await readChanges(c, cal, { ...state, etags: known ? await storedEtags(deps.db, known.id) : new Map() });
      const id = known?.id ?? uuid();
      calendars.push({ id, isNew: !known, remote: cal, changes });
      for (const o of changes?.changed ?? []) upserts.push({ calendarId: id, href: o.href, etag: o.etag, data: minimizeIcs(o.data) });
      for (const href of changes?.deleted ?? []) removals.push({ calendarId: id, href });
    }
    return { homeUrl: home, calendars, upserts, removals, feed: null };
  } catch (err) {
    if (err instanceof SyncFailure) throw err;
    throw new SyncFailure(explainCaldavFailure(err, c));
  }
}

async function storedEtags(db: Db, calendarId: string): Promise<Map<string, string | null>> {
  const rows = (await db('calendar_objects').where({ calendar_id: calendarId }).select('href', 'etag')) as Array<{
    href: string;
    etag: string | null;
  }>;
  return new Map(rows.map((o) => [o.href, o.etag]));
}

async function planFeed(deps: SyncDeps, row: ConnectionRow, url: string): Promise<Plan> {
  const answer = await fetchFeed(url, { etag: row.etag, lastModified: row.last_modified }, webhookUrlPolicy(deps.config));
  if (!answer.changed) return { homeUrl: null, calendars: [], upserts: [], removals: [], feed: null };
  return {
    homeUrl: null,
    calendars: [],
    upserts: [{ calendarId: null, href: FEED_HREF, etag: answer.etag, data: minimizeIcs(answer.text) }],
    removals: [],
    feed: { etag: answer.etag, lastModified: answer.lastModified },
  };
}

/** Expand, then write everything the plan says in one transaction (the connection row locked). */
async function apply(deps: SyncDeps, row: ConnectionRow, creds: CalendarCredentials, plan: Plan, now: number): Promise<ConnectionSkipped> {
  const { db } = deps;
  const window = await syncWindow(db, { userId: row.user_id, now });
  const reexpand = !row.expanded_from || !row.expanded_until || row.expanded_until.getTime() < window.horizonEnd;
  const host = await hostZoneAndEmails(db, row.user_id);
  if (creds.kind === 'caldav' && creds.username.includes('@')) host.emails.push(creds.username.toLowerCase());
  const goneCalendars = new Set<string>();
  if (creds.kind === 'caldav') {
    const keep = new Set(plan.calendars.map((c) => c.id));
    for (const r of (await db('calendar_connection_calendars').where({ connection_id: row.id }).select('id')) as Array<{ id: string }>) {
      if (!keep.has(r.id)) goneCalendars.add(r.id);
    }
  }

  // What to expand: every object when the window moved, else only the changed ones.
  const changedKeys = new Set(plan.upserts.map((o) => `${o.calendarId}|${o.href}`));
  const removedKeys = new Set(plan.removals.map((o) => `${o.calendarId}|${o.href}`));
  let toExpand: StoredObject[] = plan.upserts;
  if (reexpand) {
    const stored = (await db('calendar_objects').where({ connection_id: row.id }).select('calendar_id', 'href', 'data')) as Array<{
      calendar_id: string | null;
      href: string;
      data: string;
    }>;
    toExpand = [
      ...stored
        .map((o) => ({ calendarId: o.calendar_id, href: o.href, data: o.data }))
        .filter((o) => !changedKeys.has(`${o.calendarId}|${o.href}`) && !removedKeys.has(`${o.calendarId}|${o.href}`))
        .filter((o) => !o.calendarId || !goneCalendars.has(o.calendarId)),
      ...plan.upserts,
    ];
  }
  const {
    rows: expanded,
    unreadable,
    skipped,
  } = expandObjects(toExpand, {
    from: window.from,
    to: window.to,
    hostEmails: host.emails,
    hostZone: host.zone,
  });
  if (row.kind === 'ics_feed' && unreadable.length > 0) throw new SyncFailure(`the feed is not valid iCalendar: ${unreadable[0].message}`);
  const own = await ownBookingUids(db, { teamId: row.team_id, uids: expanded.map((b) => b.uid) });
  const busy = expanded.filter((b) => !own.has(b.uid));
  const unreadableKeys = new Set(unreadable.map((u) => `${u.calendarId}|${u.href}`));

  return db.transaction(async (trx) => {
    const locked = await trx('calendar_connections').where({ id: row.id }).forUpdate().first('id');
    if (!locked) throw new Gone();
    if (goneCalendars.size)
      await trx('calendar_connection_calendars')
        .whereIn('id', [...goneCalendars])
        .delete();
    for (const cal of plan.calendars) await saveCalendar(trx, row, cal, now);
    for (let i = 0; i < plan.upserts.length; i += 500) {
      await trx('calendar_objects')
        .insert(
          plan.upserts.slice(i, i + 500).map((o) => ({
            connection_id: row.id,
            calendar_id: o.calendarId,
            team_id: row.team_id,
            user_id: row.user_id,
            href: o.href,
            etag: o.etag,
            data: o.data,
            unreadable: unreadableKeys.has(`${o.calendarId}|${o.href}`),
            updated_at: new Date(now),
          })),
        )
        .onConflict(['connection_id', 'href'])
        .merge(['calendar_id', 'etag', 'data', 'unreadable', 'updated_at']);
    }
    const removedHrefs = plan.removals.map((r) => r.href);
    if (removedHrefs.length)
      await trx('calendar_objects').where({ connection_id: row.id }).whereRaw('href = ANY(?::text[])', [removedHrefs]).delete();
    if (reexpand) {
      await trx('calendar_busy_times').where({ connection_id: row.id }).delete();
      // Objects whose readability is known again after a full pass.
      await trx('calendar_objects').where({ connection_id: row.id }).update({ unreadable: false });
      const bad = [...unreadableKeys].map((k) => k.slice(k.indexOf('|') + 1));
      if (bad.length)
        await trx('calendar_objects')
          .where({ connection_id: row.id })
          .whereRaw('href = ANY(?::text[])', [bad])
          .update({ unreadable: true });
    } else {
      const touched = [...plan.upserts.map((o) => o.href), ...removedHrefs];
      if (touched.length)
        await trx('calendar_busy_times').where({ connection_id: row.id }).whereRaw('object_href = ANY(?::text[])', [touched]).delete();
    }
    await saveObjectSkipped(trx, { connectionId: row.id, all: reexpand, hrefs: plan.upserts.map((o) => o.href), skipped });
    await insertBusy(trx, row, busy);
    await refreshUserBusy(trx, [row.user_id]);
    for (const cal of plan.calendars) {
      const [{ n }] = await trx('calendar_objects').where({ calendar_id: cal.id }).count<{ n: number }[]>({ n: '*' });
      await trx('calendar_connection_calendars')
        .where({ id: cal.id })
        .update({ event_count: Number(n) });
    }
    // Only on the first good sync: a user who chose "none" later keeps it (a PATCH now triggers a sync).
    if (creds.kind === 'caldav' && !row.last_synced_at) await defaultBookingCalendar(trx, row);
    const [{ busyCount }] = await trx('calendar_busy_times')
      .where({ connection_id: row.id })
      .count<{ busyCount: number }[]>({ busyCount: '*' });
    const [{ unreadableCount }] = await trx('calendar_objects')
      .where({ connection_id: row.id, unreadable: true })
      .count<{ unreadableCount: number }[]>({ unreadableCount: '*' });
    const eventCount = await countEvents(trx, row);
    const unread = Number(unreadableCount);
    const parts = await connectionSkipped(trx, row.id);
    const sentences = [
      unread
        ? `${unread} calendar ${unread === 1 ? 'object is' : 'objects are'} not valid iCalendar and ${unread === 1 ? 'was' : 'were'} skipped`
        : null,
      skippedSentence(parts),
    ].filter(Boolean);
    await trx('calendar_connections')
      .where({ id: row.id })
      .update({
        status: 'ok',
        status_message: sentences.length ? sentences.join('; ') : null,
        last_synced_at: new Date(now),
        home_url: plan.homeUrl ?? row.home_url,
        ...(plan.feed ? { etag: plan.feed.etag, last_modified: plan.feed.lastModified } : {}),
        ...(reexpand ? { expanded_from: new Date(window.from), expanded_until: new Date(window.to) } : {}),
        event_count: eventCount,
        busy_count: Number(busyCount),
        unreadable_count: unread,
        skipped_count: parts.count,
        skipped: jsonb(parts.first),
        updated_at: trx.fn.now(),
      });
    return parts;
  });
}

async function saveCalendar(trx: Executor, row: ConnectionRow, cal: CalendarPlan, now: number): Promise<void> {
  const meta = {
    display_name: cal.remote.displayName.slice(0, 200),
    color: cal.remote.color,
    timezone: cal.remote.timezone,
    read_only: cal.remote.readOnly,
    supports_sync: cal.remote.supportsSync,
    last_synced_at: new Date(now),
    ...(cal.changes ? { ctag: cal.changes.ctag, sync_token: cal.changes.syncToken } : {}),
  };
  if (cal.isNew) {
    await trx('calendar_connection_calendars').insert({
      id: cal.id,
      connection_id: row.id,
      team_id: row.team_id,
      user_id: row.user_id,
      url: cal.remote.url,
      ...meta,
    });
  } else {
    await trx('calendar_connection_calendars')
      .where({ id: cal.id })
      .update({ ...meta, updated_at: trx.fn.now() });
  }
}

/** Busy rows in multi-row INSERTs (1,000 a statement). */
async function insertBusy(trx: Executor, row: ConnectionRow, busy: BusyRow[]): Promise<void> {
  for (let i = 0; i < busy.length; i += 1000) {
    await trx('calendar_busy_times').insert(
      busy.slice(i, i + 1000).map((b) => ({
        connection_id: row.id,
        calendar_id: b.calendarId,
        team_id: row.team_id,
        user_id: row.user_id,
        object_href: b.href,
        uid: b.uid.slice(0, 500),
        start_time: new Date(b.start),
        end_time: new Date(b.end),
      })),
    );
  }
}

/**
 * A user with no booking calendar gets the first writable calendar of this connection (the
 * dashboard can choose another one, or none). Concurrent choices are settled by the unique index.
 */
async function defaultBookingCalendar(trx: Executor, row: ConnectionRow): Promise<void> {
  const has = await trx('calendar_connection_calendars').where({ user_id: row.user_id, is_booking_calendar: true }).first('id');
  if (has) return;
  const first = await trx('calendar_connection_calendars')
    .where({ connection_id: row.id, read_only: false })
    .orderBy([{ column: 'created_at' }, { column: 'display_name' }])
    .first('id');
  if (!first) return;
  try {
    await trx.transaction((sp) => sp('calendar_connection_calendars').where({ id: first.id }).update({ is_booking_calendar: true }));
  } catch (err) {
    if ((err as { code?: string }).code !== '23505') throw err;
  }
}

/** Events of the connection: objects of its calendars, or the VEVENTs of its feed. */
async function countEvents(trx: Executor, row: ConnectionRow): Promise<number> {
  if (row.kind === 'ics_feed') {
    const feed = await trx('calendar_objects').where({ connection_id: row.id, href: FEED_HREF }).first('data');
    if (!feed) return 0;
    const uids = new Set((feed.data as string).match(/^UID[^:\r\n]*:.*$/gm) ?? []);
    return uids.size;
  }
  const [{ n }] = await trx('calendar_objects').where({ connection_id: row.id }).count<{ n: number }[]>({ n: '*' });
  return Number(n);
}
