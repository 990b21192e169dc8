/**
 * Instants and lengths of iCalendar date and date-time values for expand.ts. Pure: no I/O.
 * Wall-clock times without a registered VTIMEZONE are converted with luxon (the runtime's tz database).
 */
import ICAL from 'ical.js';
import { DateTime } from 'luxon';
import { fail } from './ics-parse';
import { ianaZoneFor } from './zones';

export const DAY_MS = 86_400_000;
/** A DURATION longer than this is malformed (ical.js would spend minutes normalising it). */
const MAX_DURATION_S = 100 * 366 * 86_400;

export type Time = ICAL.Time;
export type Component = ICAL.Component;

/** How an occurrence's end is found from its start. */
export type Length =
  | { kind: 'days'; days: number } // all-day
  | { kind: 'exact'; ms: number } // DTEND - DTSTART (negative: swapped)
  | { kind: 'wall'; duration: ICAL.Duration }; // DURATION on the wall clock

export interface Ctx {
  hostZone: string;
  /** Floating times: the calendar's X-WR-TIMEZONE when it names a zone, else the host's. */
  floatingZone: string;
  /** The calendar's own zone (X-WR-TIMEZONE, else its first VTIMEZONE that names a zone, else the host's): UTC dates of all-day series. */
  calendarZone: string;
  hostEmails: Set<string>;
  from: number;
  to: number;
  budget: { left: number };
}

/**
 * ical.js normalises an impossible date (2030-13-45T99:00) into a later one; a calendar that writes it is
 * malformed. Checks the property's raw jCal values (date `YYYY-MM-DD`, date-time `YYYY-MM-DDThh:mm:ss[Z]`).
 */
export function checkRaw(prop: ICAL.Property, what: string): void {
  const raw = prop.toJSON().slice(3);
  for (const v of raw) {
    if (typeof v !== 'string') continue; // periods (RDATE;VALUE=PERIOD) are checked by ical.js
    const m = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2})Z?)?$/.exec(v);
    if (!m) continue;
    const [mo, d, h, mi, sec] = [m[2], m[3], m[4] ?? '0', m[5] ?? '0', m[6] ?? '0'].map(Number);
    if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60) fail(`${what} is not a valid date: ${v}`);
  }
}

export function timeOf(comp: Component, name: string): Time | null {
  const prop = comp.getFirstProperty(name);
  if (!prop) return null;
  checkRaw(prop, name.toUpperCase());
  const v = prop.getFirstValue();
  if (!(v instanceof ICAL.Time)) fail(`${name.toUpperCase()} is not a date or date-time`);
  return v;
}

export function tzidOf(comp: Component, name: string): string | undefined {
  const p = comp.getFirstProperty(name)?.getParameter('tzid');
  return typeof p === 'string' ? p : undefined;
}

/** The instant of a date-time: its registered VTIMEZONE, else the zone its TZID names, else the host's; floating: ctx.floatingZone. */
export function instantOf(t: Time, tzid: string | undefined, ctx: Ctx): number {
  const zone = t.zone;
  let ms: number;
  if (zone === ICAL.Timezone.utcTimezone || (zone && zone !== ICAL.Timezone.localTimezone && zone.tzid !== 'floating')) {
    ms = t.toUnixTime() * 1000;
  } else {
    const name = tzid ? (ianaZoneFor(tzid) ?? ctx.hostZone) : ctx.floatingZone;
    ms = DateTime.fromObject(
      { year: t.year, month: t.month, day: t.day, hour: t.hour, minute: t.minute, second: t.second },
      { zone: name },
    ).toMillis();
  }
  if (!Number.isFinite(ms)) fail(`invalid date-time ${t.toString()}`);
  return ms;
}

/** Local midnight, in the host's zone, of a calendar date shifted by `plusDays`. */
export function hostDayStart(t: Time, plusDays: number, ctx: Ctx): number {
  const d = DateTime.fromObject({ year: t.year, month: t.month, day: t.day }, { zone: 'UTC' }).plus({ days: plusDays });
  if (!d.isValid) fail(`invalid date ${t.toString()}`);
  const ms = DateTime.fromObject({ year: d.year, month: d.month, day: d.day }, { zone: ctx.hostZone }).toMillis();
  if (!Number.isFinite(ms)) fail(`invalid date ${t.toString()}`);
  return ms;
}

export function dateKey(t: Time): string {
  return `${t.year}-${t.month}-${t.day}`;
}

/** Key matching an occurrence with its RECURRENCE-ID or EXDATE: the date for dates, the instant otherwise. */
export function occurrenceKey(t: Time, tzid: string | undefined, ctx: Ctx): string {
  return t.isDate ? `d:${dateKey(t)}` : `t:${instantOf(t, tzid, ctx)}`;
}

export function lengthOf(comp: Component, start: Time, startTzid: string | undefined, ctx: Ctx): Length | null {
  const end = timeOf(comp, 'dtend');
  if (end) {
    if (start.isDate) {
      const days = Math.round((Date.UTC(end.year, end.month - 1, end.day) - Date.UTC(start.year, start.month - 1, start.day)) / DAY_MS);
      return { kind: 'days', days: Math.max(days, 0) };
    }
    // DTEND before DTSTART (invalid, RFC 5545 3.8.2.2): the two are taken as swapped, as the reference
    // readers do; blocking the time is safer than blocking nothing. span() handles the negative length.
    return { kind: 'exact', ms: instantOf(end, tzidOf(comp, 'dtend'), ctx) - instantOf(start, startTzid, ctx) };
  }
  const durProp = comp.getFirstProperty('duration');
  if (durProp) return durationLength(durProp.getFirstValue(), start);
  return null;
}

export function durationLength(dur: unknown, start: Time): Length {
  if (!(dur instanceof ICAL.Duration)) fail('DURATION is not a duration');
  if (dur.toSeconds() > MAX_DURATION_S) fail(`DURATION ${dur.toString()} is longer than 100 years`);
  if (dur.isNegative) return start.isDate ? { kind: 'days', days: 0 } : { kind: 'exact', ms: 0 };
  if (start.isDate) return { kind: 'days', days: Math.ceil(dur.toSeconds() / 86_400) };
  return { kind: 'wall', duration: dur };
}

export function lengthMs(length: Length): number {
  return length.kind === 'days' ? length.days * DAY_MS : length.kind === 'exact' ? length.ms : length.duration.toSeconds() * 1000;
}

/** [start, end) of one occurrence starting at `occ` (in the zone of the component's DTSTART). */
export function span(occ: Time, tzid: string | undefined, length: Length, ctx: Ctx): [number, number] {
  if (occ.isDate) {
    const days = length.kind === 'days' ? length.days : 1;
    return [hostDayStart(occ, 0, ctx), hostDayStart(occ, days, ctx)];
  }
  const start = instantOf(occ, tzid, ctx);
  switch (length.kind) {
    case 'exact':
      return length.ms < 0 ? [start + length.ms, start] : [start, start + length.ms];
    case 'wall': {
      const end = occ.clone();
      end.addDuration(length.duration);
      return [start, Math.max(start, instantOf(end, tzid, ctx))];
    }
    case 'days': // a date-time DTSTART with a date DTEND: treat the days as 24 h each
      return [start, start + length.days * DAY_MS];
  }
}

export function overlaps(start: number, end: number, ctx: Ctx): boolean {
  return end > start && start < ctx.to && end > ctx.from;
}
