import { DateTime } from 'luxon';
import type { EventTimes } from './event-busy';
import { ianaZoneFor } from './zones';

/**
 * A Microsoft Graph event (calendarView delta, read with `Prefer: outlook.timezone="UTC"`) as the
 * stored shape the busy rules read (event-busy.ts; docs/calendars.md "Microsoft 365"):
 * - `@removed` (deleted, or gone from the window) or `isCancelled` → `cancelled`: blocks nothing;
 * - `showAs` `free` or `workingElsewhere` → transparent: blocks nothing (working elsewhere says where
 *   the host works, not that they are busy, like Google's working-location entries); `tentative`,
 *   `busy`, `oof` and anything unknown block (a tentative yes or an away day is not free time);
 * - `responseStatus.response` `declined` → the host declined: blocks nothing;
 * - `isAllDay`: the dates of start and end (all-day events are midnight to midnight whatever the
 *   Prefer header), blocking the days in the event's `originalStartTimeZone` (a Windows zone name
 *   mapped to IANA with windows-iana, or an IANA name); unknown → the calendar's zone;
 * - timed: start and end in UTC (a zone other than UTC, when the header was not honoured, is converted).
 * Nothing else is kept: no subject, body, location or attendees.
 */
export interface GraphEventTimes {
  id: string;
  '@removed'?: { reason?: string };
  isCancelled?: boolean;
  isAllDay?: boolean;
  showAs?: string;
  iCalUId?: string;
  type?: string;
  originalStartTimeZone?: string;
  start?: { dateTime?: string; timeZone?: string };
  end?: { dateTime?: string; timeZone?: string };
  responseStatus?: { response?: string };
}

const FREE = new Set(['free', 'workingelsewhere']);

function utcIso(t: { dateTime?: string; timeZone?: string } | undefined): string | undefined {
  if (!t?.dateTime) return undefined;
  const local = t.dateTime.replace(/Z$/, '');
  const tz = !t.timeZone || /^(utc|etc\/utc|tzone:\/\/microsoft\/utc)$/i.test(t.timeZone) ? 'UTC' : (ianaZoneFor(t.timeZone) ?? 'UTC');
  const d = DateTime.fromISO(local, { zone: tz });
  return d.isValid ? d.toUTC().toISO()! : undefined;
}

export function graphEventTimes(e: GraphEventTimes): EventTimes {
  if (e['@removed'] || e.isCancelled) return { id: e.id, status: 'cancelled' };
  const out: EventTimes = {
    id: e.id,
    status: 'confirmed',
    ...(e.iCalUId ? { iCalUID: e.iCalUId } : {}),
    ...(FREE.has((e.showAs ?? '').toLowerCase()) ? { transparency: 'transparent' } : {}),
    ...(e.responseStatus?.response === 'declined' ? { attendees: [{ self: true, responseStatus: 'declined' }] } : {}),
  };
  if (e.isAllDay) {
    const day = (t?: { dateTime?: string }) => t?.dateTime?.slice(0, 10);
    const zone = e.originalStartTimeZone ? ianaZoneFor(e.originalStartTimeZone) : null;
    return { ...out, start: { date: day(e.start) }, end: { date: day(e.end) }, ...(zone ? { zone } : {}) };
  }
  return { ...out, start: { dateTime: utcIso(e.start) }, end: { dateTime: utcIso(e.end) } };
}
