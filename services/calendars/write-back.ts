import { logger } from '../../core/logger';
import type { Mailer } from '../../core/mailer';
import { icalUidOf } from '../../domain/ics';
import type { Db } from '../../db/knex';
import type { ServiceDeps } from '../deps';
import type { MeetingRow } from '../meetings/row';
import type { CleanupWorkflowInput } from '../../workflows/scheduling/contract';
import { CalendarWriteError } from './caldav-write';
import { calendarWriters, type Destination, type WriteRecord, type WriteResult } from './calendar-writers';
import { destinationOf } from './destination';
import { markNeedsReauthAndEmail } from './calendar-reauth';
import { withWriteSlot } from './write-leases';

/**
 * Write-back of bookings to the host's destination calendar (docs/scheduling.md "Host calendars:
 * write-back"). Called by activities of the booking and cleanup workflows, never by the API. What
 * is written where is decided here; the provider calls are the writers' (calendar-writers.ts: CalDAV,
 * Google and Microsoft).
 *
 * - `writeMeetingToCalendar`: the meeting as it is now (tentative while pending, confirmed once
 *   scheduled) is written on its destination calendar (destination.ts: the event type's own, else
 *   the host's booking calendar) and recorded in meeting_calendar_writes. Idempotent: run it again
 *   after any change. A meeting that replaced a rescheduled one has the same UID, so it writes the
 *   same event (it moves) and the old meeting's record becomes `moved` (its cleanup leaves it alone).
 * - `removeMeetingFromCalendar`: the cleanup's delete of what a meeting wrote.
 * A provider that fails: the connection shows `error` with a human message and the error is thrown,
 * so that the activity retries (with backoff, or the provider's Retry-After; a permanent refusal is
 * not retried); the next success clears that message. Google or Microsoft no longer accepting the
 * connection marks it `needs_reauth` (Google's also emails the host once).
 * Every provider call holds one of its account's write slots (write-leases.ts); none free throws
 * `CalendarWriteBusy`, which leaves the connection as it is.
 */

type Deps = Pick<ServiceDeps, 'db' | 'config'> & Partial<Pick<ServiceDeps, 'video'>> & { mailer?: Mailer };

const ACTIVE = ['scheduled', 'pending_confirmation'];
const WRITE_FAILED = 'could not write a booking to the calendar';
const REMOVE_FAILED = 'could not remove a booking from the calendar';

export type { WriteRecord } from './calendar-writers';

export type WriteOutcome = 'written' | 'no_calendar' | 'inactive' | 'gone' | 'removed_after_cancel';

/**
 * The NOTIFY channel on which a Google or Microsoft write names its meeting (the payload) when it is
 * stored, or refused for good: the API's booking answer waits on it for the provider's event
 * (services/scheduling/booking-answer.ts).
 */
export const CALENDAR_WRITTEN_CHANNEL = 'fss_calendar_written';

/** The title of the event a meeting is written as. */
export const eventSummaryOf = (m: Pick<MeetingRow, 'title' | 'attendee_name'>) => `${m.title} with ${m.attendee_name}`;

/** The calendar a meeting of this host (and event type) is written to, if any. */
export async function bookingCalendarOf(db: Db, m: Pick<MeetingRow, 'host_user_id' | 'event_type_id'>): Promise<Destination | null> {
  return destinationOf(db, { hostUserId: m.host_user_id, eventTypeId: m.event_type_id });
}

async function markFailed(db: Db, connectionId: string, message: string): Promise<void> {
  await db('calendar_connections')
    .where({ id: connectionId })
    .whereNotIn('status', ['needs_reauth', 'disconnecting'])
    .update({ status: 'error', status_message: message, last_error_at: new Date(), updated_at: db.fn.now() });
}

/** A write that worked clears the error an earlier write or removal left (not a sync's error). */
async function clearWriteError(db: Db, connectionId: string): Promise<void> {
  await db('calendar_connections')
    .where({ id: connectionId, status: 'error' })
    .where((q) => q.where('status_message', 'like', `${WRITE_FAILED}%`).orWhere('status_message', 'like', `${REMOVE_FAILED}%`))
    .update({ status: 'ok', status_message: null, updated_at: db.fn.now() });
}

/** A writer's failure, shown on the connection (or the connection marked needs_reauth), then thrown again for the activity. */
async function failed(deps: Deps, input: { err: unknown; connectionId: string; prefix: string; meetingId: string }): Promise<never> {
  const { err, connectionId, prefix, meetingId } = input;
  if (!(err instanceof CalendarWriteError)) throw err;
  const message = `${prefix}: ${err.message}`;
  logger.warn({ meetingId, connectionId, status: err.status }, message);
  if (err.kind.needsReauth) {
    const row = await deps.db('calendar_connections').where({ id: connectionId }).first('id', 'team_id', 'user_id', 'kind');
    if (row) await markNeedsReauthAndEmail(deps, { row, now: Date.now() });
  } else await markFailed(deps.db, connectionId, message);
  if (err.kind.permanent) await settledWithoutEvent(deps.db, meetingId);
  throw new CalendarWriteError(message, err.status, err.kind);
}

/**
 * A write refused for good (not retried) tells a booking answer waiting for its provider event that
 * none is coming, so that it answers at once with our own event instead of at its deadline.
 */
async function settledWithoutEvent(db: Db, meetingId: string): Promise<void> {
  await db.raw('select pg_notify(?, ?)', [CALENDAR_WRITTEN_CHANNEL, meetingId]);
}

function describe(m: MeetingRow): string {
  const lines = [`Booked by ${m.attendee_name} <${m.attendee_email}>`];
  if (m.attendee_phone) lines.push(`Phone: ${m.attendee_phone}`);
  if (m.guests.length) lines.push(`Guests: ${m.guests.join(', ')}`);
  if (m.meeting_link) lines.push(`Where: ${m.meeting_link}`);
  if (m.notes) lines.push(`Notes: ${m.notes}`);
  if (m.description) lines.push('', m.description);
  return lines.join('\n');
}

/** The meeting asks its host's Google calendar for a Meet link (its location's adapter is `google_meet`). */
export const wantsMeet = (deps: Deps, m: Pick<MeetingRow, 'location_type'>) => deps.video?.adapterOf(m.location_type) === 'google_meet';
/** The meeting asks its host's Microsoft calendar for a Teams meeting (adapter `microsoft_teams`). */
export const wantsTeams = (deps: Deps, m: Pick<MeetingRow, 'location_type'>) =>
  deps.video?.adapterOf(m.location_type) === 'microsoft_teams';

/** Put the meeting, as it is now, on its destination calendar. */
export async function writeMeetingToCalendar(deps: Deps, input: { meetingId: string; depth?: number }): Promise<WriteOutcome> {
  const { db } = deps;
  const { meetingId, depth = 0 } = input;
  const m: MeetingRow | undefined = await db('meetings').where({ id: meetingId }).first();
  if (!m) return 'gone';
  if (!ACTIVE.includes(m.status)) return 'inactive';
  const cal = await bookingCalendarOf(db, m);
  if (!cal) return 'no_calendar';
  const conn = await db('calendar_connections').where({ id: cal.connection_id }).first('status');
  if (conn?.status === 'needs_reauth') {
    await settledWithoutEvent(db, m.id);
    throw new CalendarWriteError(`${WRITE_FAILED} "${cal.display_name}": the connection needs connecting again`, 401, {
      needsReauth: true,
      permanent: true,
    });
  }

  const uid = icalUidOf(m);
  // The same UID on this calendar: our own earlier write, or that of the meeting this one replaced.
  const records: WriteRecord[] = await db('meeting_calendar_writes').where({ team_id: m.team_id, uid }).whereNot({ state: 'removed' });
  const here =
    records.find((r) => r.calendar_id === cal.id && r.meeting_id === m.id) ??
    records.find((r) => r.calendar_id === cal.id && r.state === 'written') ??
    records.find((r) => r.calendar_id === cal.id);

  const meet = (wantsMeet(deps, m) && cal.kind === 'google') || (wantsTeams(deps, m) && cal.kind === 'microsoft');
  let put: WriteResult;
  try {
    const event = { cal, meeting: m, uid, summary: eventSummaryOf(m), description: describe(m), here, meet };
    put = await withWriteSlot(deps, { connectionId: cal.connection_id, run: () => calendarWriters[cal.kind].write(deps, event) });
  } catch (err) {
    return failed(deps, { err, connectionId: cal.connection_id, prefix: `${WRITE_FAILED} "${cal.display_name}"`, meetingId });
  }

  await db.transaction(async (trx) => {
    const values = {
      href: put.href,
      etag: put.etag,
      html_url: put.htmlUrl,
      provider_event_id: put.providerEventId,
      provider_ical_uid: put.providerIcalUid,
      sequence: m.ical_sequence,
      state: 'written' as const,
    };
    await trx('meeting_calendar_writes')
      .insert({ meeting_id: m.id, calendar_id: cal.id, connection_id: cal.connection_id, team_id: m.team_id, uid, ...values })
      .onConflict(['meeting_id', 'calendar_id'])
      .merge({ ...values, updated_at: trx.fn.now() });
    // The event now belongs to this meeting: the one it replaced must not delete it in its cleanup.
    await trx('meeting_calendar_writes')
      .where({ team_id: m.team_id, uid, calendar_id: cal.id, state: 'written' })
      .whereNot({ meeting_id: m.id })
      .update({ state: 'moved', updated_at: trx.fn.now() });
    // The provider's conference link is the meeting's link (Google Meet, Teams).
    if (put.meetLink) await trx('meetings').where({ id: m.id }).update({ meeting_link: put.meetLink, updated_at: trx.fn.now() });
    // Sent on commit: a booking answer waiting for this meeting's provider event reads it now.
    if (cal.kind !== 'caldav') await trx.raw('select pg_notify(?, ?)', [CALENDAR_WRITTEN_CHANNEL, m.id]);
  });
  await clearWriteError(db, cal.connection_id);

  // Another calendar held it before (the host switched calendars): take it off the old one.
  for (const old of records.filter((r) => r.calendar_id !== cal.id && r.state === 'written')) {
    await removeRecord(deps, old);
  }

  // The meeting may have changed while the write was in flight (the cleanup may already have run).
  const after: MeetingRow | undefined = await db('meetings').where({ id: m.id }).first();
  if (after && after.status === 'rescheduled' && after.rescheduled_to_id && depth < 5) {
    // The meeting that replaced it owns the event now: write that one's times over ours.
    await writeMeetingToCalendar(deps, { meetingId: after.rescheduled_to_id, depth: depth + 1 });
    return 'written';
  }
  if (!after || !ACTIVE.includes(after.status)) {
    if (!after || after.status === 'cancelled') {
      const mine: WriteRecord[] = await db('meeting_calendar_writes').where({ meeting_id: m.id, state: 'written' });
      for (const r of mine) await removeRecord(deps, r);
      return 'removed_after_cancel';
    }
  }
  return 'written';
}

async function removeRecord(deps: Deps, r: WriteRecord): Promise<void> {
  const { db } = deps;
  const cal: { display_name: string; url: string; kind: string; status: string } | undefined = await db(
    'calendar_connection_calendars as c',
  )
    .join('calendar_connections as k', 'k.id', 'c.connection_id')
    .where({ 'c.id': r.calendar_id })
    .first('c.display_name', 'c.url', 'k.kind', 'k.status');
  const writer = cal && cal.kind in calendarWriters ? calendarWriters[cal.kind as keyof typeof calendarWriters] : null;
  // A calendar or connection that is gone took the event with it; a Google account being disconnected is revoked.
  if (cal && writer && cal.status !== 'disconnecting') {
    try {
      await withWriteSlot(deps, { connectionId: r.connection_id, run: () => writer.remove(deps, { record: r, calendarUrl: cal.url }) });
    } catch (err) {
      await failed(deps, { err, connectionId: r.connection_id, prefix: `${REMOVE_FAILED} "${cal.display_name}"`, meetingId: r.meeting_id });
    }
    await clearWriteError(db, r.connection_id);
  }
  await db('meeting_calendar_writes')
    .where({ meeting_id: r.meeting_id, calendar_id: r.calendar_id })
    .update({ state: 'removed', updated_at: db.fn.now() });
}

/**
 * The cleanup's part: delete what the meeting wrote. An event another meeting took over (the
 * meeting that replaced a rescheduled one: state `moved`) is left alone.
 */
export async function removeMeetingFromCalendar(deps: Deps, input: Pick<CleanupWorkflowInput, 'meetingId'>): Promise<number> {
  const records: WriteRecord[] = await deps.db('meeting_calendar_writes').where({ meeting_id: input.meetingId, state: 'written' });
  for (const r of records) await removeRecord(deps, r);
  return records.length;
}
