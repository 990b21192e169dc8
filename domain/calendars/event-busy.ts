import { DateTime } from 'luxon';

/**
 * Busy time of one provider event, in the shape both providers' events are stored in (Google's, as
 * events.list answers it with `singleEvents=true`; Graph's events are turned into it by
 * microsoft-busy.ts). docs/calendars.md "Google Calendar" and "Microsoft 365":
 * - `cancelled` (deleted, or an occurrence removed) blocks nothing;
 * - `transparency: transparent` ("Show as: available" / free) blocks nothing; nor does a working-location entry;
 * - an invitation the host declined (the attendee marked `self` answered `declined`) blocks nothing;
 * - a timed event blocks start..end; an all-day event (`date`, end exclusive) blocks whole days in the
 *   event's own `zone` when it has one, else the calendar's time zone.
 */
export interface EventTimes {
  id: string;
  status?: string;
  iCalUID?: string;
  transparency?: string;
  eventType?: string;
  start?: { date?: string; dateTime?: string };
  end?: { date?: string; dateTime?: string };
  attendees?: Array<{ self?: boolean; responseStatus?: string }>;
  /** The IANA zone an all-day event's days are in (Graph: its originalStartTimeZone); absent: the calendar's. */
  zone?: string;
}

export function eventBusy(e: EventTimes, calendarZone: string): { start: number; end: number } | null {
  if (e.status === 'cancelled') return null;
  if (e.transparency === 'transparent' || e.eventType === 'workingLocation') return null;
  if ((e.attendees ?? []).some((a) => a.self && a.responseStatus === 'declined')) return null;
  let start: number;
  let end: number;
  if (e.start?.dateTime) {
    start = Date.parse(e.start.dateTime);
    end = Date.parse(e.end?.dateTime ?? e.start.dateTime);
  } else if (e.start?.date) {
    const zone = e.zone ?? calendarZone;
    const day = (d: string) => DateTime.fromISO(d, { zone }).startOf('day');
    const s = day(e.start.date);
    const f = e.end?.date ? day(e.end.date) : s.plus({ days: 1 });
    start = s.toMillis();
    end = f.toMillis();
  } else return null;
  if (!Number.isFinite(start) || !Number.isFinite(end)) return null;
  if (end < start) [start, end] = [end, start];
  return end > start ? { start, end } : null;
}
