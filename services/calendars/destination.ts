import { validationFailed } from '../../core/errors';
import type { Executor } from '../../db/knex';
import { WRITABLE_KINDS, type Destination } from './calendar-writers';

/**
 * Where a booking is written (docs/scheduling.md "Host calendars: write-back"): the event type's own
 * `destination_calendar_id` when it is a writable calendar of the meeting's host, else the host's
 * one booking calendar (`is_booking_calendar`, at most one per user across all connections), else
 * nowhere. Only connections that can receive bookings count (CalDAV, Google, Microsoft), and not one that is
 * being disconnected.
 */
const COLUMNS = ['c.id', 'c.connection_id', 'c.team_id', 'c.url', 'c.display_name', 'k.kind'];

function writable(db: Executor, userId: string) {
  return db('calendar_connection_calendars as c')
    .join('calendar_connections as k', 'k.id', 'c.connection_id')
    .where({ 'c.user_id': userId, 'c.read_only': false })
    .whereIn('k.kind', WRITABLE_KINDS)
    .whereNot('k.status', 'disconnecting');
}

export async function destinationOf(db: Executor, input: { hostUserId: string; eventTypeId: string | null }): Promise<Destination | null> {
  if (input.eventTypeId) {
    const own = await writable(db, input.hostUserId)
      .join('event_types as e', 'e.destination_calendar_id', 'c.id')
      .where('e.id', input.eventTypeId)
      .first(COLUMNS);
    if (own) return own as Destination;
  }
  const row = await writable(db, input.hostUserId).where('c.is_booking_calendar', true).first(COLUMNS);
  return (row as Destination | undefined) ?? null;
}

/**
 * An event type's `destination_calendar_id`: a writable calendar (CalDAV, Google with the role
 * `owner` or `writer`, or Microsoft with `canEdit`) of one of its page's hosts. Else a 400 naming the field.
 */
export async function checkDestinationCalendar(
  db: Executor,
  input: { teamId: string; pageId: string; calendarId: string },
): Promise<{ userId: string; kind: string }> {
  const path = 'body.destination_calendar_id';
  const row = await db('calendar_connection_calendars as c')
    .join('calendar_connections as k', 'k.id', 'c.connection_id')
    .where({ 'c.id': input.calendarId, 'c.team_id': input.teamId })
    .whereNot('k.status', 'disconnecting')
    .first('c.user_id', 'c.read_only', 'k.kind');
  if (!row) throw validationFailed([{ path, message: 'is not a calendar of a connection of this team' }]);
  if (!(WRITABLE_KINDS as string[]).includes(row.kind) || row.read_only)
    throw validationFailed([{ path, message: 'this calendar cannot receive bookings (read-only, or an iCal feed)' }]);
  const host = await db('scheduling_page_hosts').where({ page_id: input.pageId, user_id: row.user_id }).first('user_id');
  if (!host) throw validationFailed([{ path, message: "is not a calendar of a host of this event type's page" }]);
  return { userId: row.user_id as string, kind: row.kind as string };
}
