import type { MeetingCalendarWritesRow } from '../../db/tables';
import { webhookUrlPolicy } from '../../core/config';
import { logger } from '../../core/logger';
import { calendarObjectIcs, icalUidOf } from '../../domain/ics';
import type { Db, Executor } from '../../db/knex';
import type { ServiceDeps } from '../deps';
import type { MeetingRow } from '../meetings/row';
import type { CleanupWorkflowInput } from '../../workflows/scheduling/contract';
import { CalendarWriteError, deleteCalendarObject, objectUrl, putCalendarObject } from './caldav-write';
import { loadCredentials } from './secrets';

/**
 * Write-back of bookings to the host's booking calendar (docs/scheduling.md "Host calendars:
 * write-back"). Called by activities of the booking and cleanup workflows, never by the API.
 *
 * - `writeMeetingToCalendar`: the meeting as it is now (TENTATIVE while pending, CONFIRMED once
 *   scheduled, its UID and SEQUENCE) is PUT on the booking calendar of its host, and recorded in
 *   meeting_calendar_writes. Idempotent: run it again after any change. A meeting that replaced a
 *   rescheduled one has the same UID, so it PUTs the same resource (the event moves) and the old
 *   meeting's record becomes `moved` (its cleanup leaves the event alone).
 * - `removeMeetingFromCalendar`: the cleanup's DELETE of what a meeting wrote.
 * A server that fails: the connection shows `error` with a human message and the error is thrown,
 * so that the activity retries (with backoff); the next success clears that message.
 */

type Deps = Pick<ServiceDeps, 'db' | 'config'>;

const ACTIVE = ['scheduled', 'pending_confirmation'];
const WRITE_FAILED = 'could not write a booking to the calendar';
const REMOVE_FAILED = 'could not remove a booking from the calendar';

interface BookingCalendar {
  id: string;
  connection_id: string;
  team_id: string;
  url: string;
  display_name: string;
}

/** Where a meeting was written on a host's calendar. */
export type WriteRecord = Omit<MeetingCalendarWritesRow, 'created_at' | 'updated_at'>;

export type WriteOutcome = 'written' | 'no_calendar' | 'inactive' | 'gone' | 'removed_after_cancel';

/** The one calendar of a user that receives bookings (a writable CalDAV calendar), if any. */
export async function bookingCalendarOf(db: Executor, userId: string): Promise<BookingCalendar | null> {
  const row = await db('calendar_connection_calendars as c')
    .join('calendar_connections as k', 'k.id', 'c.connection_id')
    .where({ 'c.user_id': userId, 'c.is_booking_calendar': true, 'c.read_only': false, 'k.kind': 'caldav' })
    .first('c.id', 'c.connection_id', 'c.team_id', 'c.url', 'c.display_name');
  return (row as BookingCalendar | undefined) ?? null;
}

async function markFailed(db: Db, connectionId: string, message: string): Promise<void> {
  await db('calendar_connections')
    .where({ id: connectionId })
    .update({ status: 'error', status_message: message, last_error_at: new Date(), updated_at: db.fn.now() });
}

/** A write that worked clears the error an earlier write or removal left (not a sync's error). */
async function clearWriteError(db: Db, connectionId: string): Promise<void> {
  await db('calendar_connections')
    .where({ id: connectionId, status: 'error' })
    .where((q) => q.where('status_message', 'like', `${WRITE_FAILED}%`).orWhere('status_message', 'like', `${REMOVE_FAILED}%`))
    .update({ status: 'ok', status_message: null, updated_at: db.fn.now() });
}

async function account(deps: Deps, connectionId: string) {
  const creds = await loadCredentials(deps, { connectionId });
  return creds?.kind === 'caldav' ? { username: creds.username, password: creds.password } : null;
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

/** Put the meeting, as it is now, on its host's booking calendar. */
export async function writeMeetingToCalendar(deps: Deps, input: { meetingId: string; depth?: number }): Promise<WriteOutcome> {
  const { db } = deps;
  const { meetingId, depth = 0 } = input;
  const m: MeetingRow | undefined = await db('meetings').where({ id: meetingId }).first();
  if (!m) return 'gone';
  if (!ACTIVE.includes(m.status)) return 'inactive';
  const cal = await bookingCalendarOf(db, m.host_user_id);
  if (!cal) return 'no_calendar';
  const acct = await account(deps, cal.connection_id);
  if (!acct) return 'no_calendar';

  const uid = icalUidOf(m);
  // The same UID on this calendar: our own earlier write, or that of the meeting this one replaced.
  const records: WriteRecord[] = await db('meeting_calendar_writes').where({ team_id: m.team_id, uid }).whereNot({ state: 'removed' });
  const here =
    records.find((r) => r.calendar_id === cal.id && r.meeting_id === m.id) ??
    records.find((r) => r.calendar_id === cal.id && r.state === 'written') ??
    records.find((r) => r.calendar_id === cal.id);
  const url = here?.href ?? objectUrl(cal.url, uid);
  const ics = calendarObjectIcs({
    uid,
    sequence: m.ical_sequence,
    summary: `${m.title} with ${m.attendee_name}`,
    description: describe(m),
    start: new Date(m.start_time),
    end: new Date(m.end_time),
    location: m.meeting_link,
    url: m.meeting_link && /^https?:/.test(m.meeting_link) ? m.meeting_link : null,
    status: m.status === 'pending_confirmation' ? 'tentative' : 'confirmed',
  });

  let put;
  try {
    put = await putCalendarObject({ account: acct, policy: webhookUrlPolicy(deps.config), url, ics, etag: here?.etag ?? null });
  } catch (err) {
    if (err instanceof CalendarWriteError) {
      const message = `${WRITE_FAILED} "${cal.display_name}": ${err.message}`;
      logger.warn({ meetingId, connectionId: cal.connection_id, status: err.status }, message);
      await markFailed(db, cal.connection_id, message);
      throw new CalendarWriteError(message, err.status);
    }
    throw err;
  }

  await db.transaction(async (trx) => {
    await trx('meeting_calendar_writes')
      .insert({
        meeting_id: m.id,
        calendar_id: cal.id,
        connection_id: cal.connection_id,
        team_id: m.team_id,
        uid,
        href: put.url,
        etag: put.etag,
        html_url: put.url,
        sequence: m.ical_sequence,
        state: 'written',
      })
      .onConflict(['meeting_id', 'calendar_id'])
      .merge({ href: put.url, etag: put.etag, html_url: put.url, sequence: m.ical_sequence, state: 'written', updated_at: trx.fn.now() });
    // The event now belongs to this meeting: the one it replaced must not delete it in its cleanup.
    await trx('meeting_calendar_writes')
      .where({ team_id: m.team_id, uid, calendar_id: cal.id, state: 'written' })
      .whereNot({ meeting_id: m.id })
      .update({ state: 'moved', updated_at: trx.fn.now() });
  });
  await clearWriteError(db, cal.connection_id);

  // Another booking calendar held it before (the host switched calendars): take it off the old one.
  for (const old of records.filter((r) => r.calendar_id !== cal.id && r.state === 'written')) {
    await removeRecord(deps, old);
  }

  // The meeting may have changed while the PUT was in flight (the cleanup may already have run).
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
  const cal: { display_name: string } | undefined = await db('calendar_connection_calendars')
    .where({ id: r.calendar_id })
    .first('display_name');
  const acct = cal ? await account(deps, r.connection_id) : null;
  if (cal && acct) {
    try {
      await deleteCalendarObject({ account: acct, policy: webhookUrlPolicy(deps.config), url: r.href });
    } catch (err) {
      if (err instanceof CalendarWriteError) {
        const message = `${REMOVE_FAILED} "${cal.display_name}": ${err.message}`;
        logger.warn({ meetingId: r.meeting_id, connectionId: r.connection_id, status: err.status }, message);
        await markFailed(db, r.connection_id, message);
        throw new CalendarWriteError(message, err.status);
      }
      throw err;
    }
    await clearWriteError(db, r.connection_id);
  }
  // A calendar or connection that is gone took the event with it (or we can no longer reach it).
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
