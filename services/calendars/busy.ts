import { CalendarParseError, readBusy, type BusyOccurrence, type ExpandOptions, type Skipped } from '../../domain/calendars/expand';
import { meetingUid } from '../../domain/ics';
import type { Executor } from '../../db/knex';

/** One cached busy interval, before it is written to calendar_busy_times. */
export interface BusyRow {
  calendarId: string | null;
  href: string;
  uid: string;
  start: number;
  end: number;
}

export interface StoredObject {
  calendarId: string | null;
  href: string;
  data: string;
}

/** The parts of one object that were skipped (domain/calendars/expand.ts readBusy). */
export interface ObjectSkipped {
  calendarId: string | null;
  href: string;
  count: number;
  /** The first SKIPPED_KEPT of them. */
  first: Skipped[];
}

/** How many skipped parts are kept per object and per connection (the count is all of them). */
export const SKIPPED_KEPT = 20;

/**
 * Busy intervals of calendar objects inside the window (RRULE, RDATE, EXDATE and RECURRENCE-ID
 * expanded by domain/calendars/expand.ts; transparent, cancelled and declined events give none).
 * An object with no readable VCALENDAR (or past a limit) is skipped and counted as unreadable; the
 * lines and components skipped inside a readable object are returned per object.
 */
export function expandObjects(
  objects: StoredObject[],
  opts: ExpandOptions,
): { rows: BusyRow[]; unreadable: Array<{ calendarId: string | null; href: string; message: string }>; skipped: ObjectSkipped[] } {
  const rows: BusyRow[] = [];
  const unreadable: Array<{ calendarId: string | null; href: string; message: string }> = [];
  const skipped: ObjectSkipped[] = [];
  for (const o of objects) {
    let occurrences: BusyOccurrence[];
    try {
      const read = readBusy(o.data, opts);
      occurrences = read.busy;
      // Nothing read whole, only skipped parts: the object is unreadable (it must not free cached busy time).
      if (read.events === 0 && read.skipped.length)
        throw new CalendarParseError(`nothing could be read: ${read.skipped[0].what}: ${read.skipped[0].reason}`);
      if (read.skipped.length)
        skipped.push({ calendarId: o.calendarId, href: o.href, count: read.skipped.length, first: read.skipped.slice(0, SKIPPED_KEPT) });
    } catch (err) {
      if (err instanceof CalendarParseError) {
        unreadable.push({ calendarId: o.calendarId, href: o.href, message: err.message.slice(0, 200) });
        continue;
      }
      throw err;
    }
    for (const occ of occurrences) {
      if (occ.end > occ.start) rows.push({ calendarId: o.calendarId, href: o.href, uid: occ.uid, start: occ.start, end: occ.end });
    }
  }
  return { rows, unreadable, skipped };
}

const OUR_UID = (() => {
  const sample = meetingUid('ID');
  const [prefix, suffix] = sample.split('ID');
  return { prefix, suffix };
})();

/**
 * UIDs among `uids` that are our own bookings of the team, written back to the host's calendar
 * (or accepted there from our invitation): they already block through the meeting itself and must
 * not count twice. A meeting's UID is `meeting-<id>@…`, or the one a reschedule carried over.
 */
export async function ownBookingUids(db: Executor, input: { teamId: string; uids: string[] }): Promise<Set<string>> {
  const { teamId, uids } = input;
  const unique = [...new Set(uids)];
  if (unique.length === 0) return new Set();
  const ids = unique
    .filter((u) => u.startsWith(OUR_UID.prefix) && u.endsWith(OUR_UID.suffix))
    .map((u) => u.slice(OUR_UID.prefix.length, u.length - OUR_UID.suffix.length))
    .filter((id) => /^[0-9a-f-]{36}$/i.test(id));
  const [byId, byUid, written, atProvider] = await Promise.all([
    ids.length ? db('meetings').where({ team_id: teamId }).whereRaw('id = ANY(?::uuid[])', [ids]).select('id') : [],
    db('meetings').where({ team_id: teamId }).whereRaw('ical_uid = ANY(?::text[])', [unique]).select('ical_uid'),
    db('meeting_calendar_writes').where({ team_id: teamId }).whereRaw('uid = ANY(?::text[])', [unique]).select('uid'),
    // Our events at Google carry Google's iCalUID, recorded by the write-back.
    db('meeting_calendar_writes')
      .where({ team_id: teamId })
      .whereRaw('provider_ical_uid = ANY(?::text[])', [unique])
      .select('provider_ical_uid'),
  ]);
  return new Set<string>([
    ...(byId as Array<{ id: string }>).map((r) => meetingUid(r.id)),
    ...(byUid as Array<{ ical_uid: string }>).map((r) => r.ical_uid),
    ...(written as Array<{ uid: string }>).map((r) => r.uid),
    ...(atProvider as Array<{ provider_ical_uid: string }>).map((r) => r.provider_ical_uid),
  ]);
}
