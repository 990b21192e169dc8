import { DateTime } from 'luxon';

/**
 * Busy time of one Google Calendar event (docs/calendars.md "Google Calendar"), as events.list
 * answers it with `singleEvents=true` (each occurrence of a recurring event is its own event):
 * - `cancelled` (deleted, or an occurrence removed) blocks nothing;
 * - `transparency: transparent` ("Show as: available") blocks nothing; nor does a working-location entry;
 * - an invitation the host declined (the attendee marked `self` answered `declined`) blocks nothing;
 * - a timed event blocks start..end; an all-day event (`date`, end exclusive) blocks whole days in the
 *   calendar's time zone.
 */
export interface GoogleEventTimes {
  id: string;
  status?: string;
  iCalUID?: string;
  transparency?: string;
  eventType?: string;
  start?: { date?: string; dateTime?: string };
  end?: { date?: string; dateTime?: string };
  attendees?: Array<{ self?: boolean; responseStatus?: string }>;
}

export function googleEventBusy(e: GoogleEventTimes, zone: string): { start: number; end: number } | null {
  if (e.status === 'cancelled') return null;
  if (e.transparency === 'transparent' || e.eventType === 'workingLocation') return null;
  if ((e.attendees ?? []).some((a) => a.self && a.responseStatus === 'declined')) return null;
  let start: number;
  let end: number;
  if (e.start?.dateTime) {
    start = Date.parse(e.start.dateTime);
    end = Date.parse(e.end?.dateTime ?? e.start.dateTime);
  } else if (e.start?.date) {
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

/** What is stored of an event (no summary, description, location or attendee addresses). */
export function minimizeGoogleEvent(e: GoogleEventTimes): GoogleEventTimes {
  const self = (e.attendees ?? []).filter((a) => a.self).map((a) => ({ self: true, responseStatus: a.responseStatus }));
  return {
    id: e.id,
    status: e.status,
    iCalUID: e.iCalUID,
    transparency: e.transparency,
    eventType: e.eventType,
    start: e.start && { date: e.start.date, dateTime: e.start.dateTime },
    end: e.end && { date: e.end.date, dateTime: e.end.dateTime },
    ...(self.length ? { attendees: self } : {}),
  };
}
