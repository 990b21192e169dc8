/**
 * Reading iCalendar text for expand.ts: the repairs real publishers need, the VCALENDAR roots, and the
 * object's VTIMEZONEs registered with ical.js for the duration of one call. Pure: no I/O.
 */
import ICAL from 'ical.js';
import { repairText, salvageText, type Skipped } from './ics-repair';
import { ianaZoneFor } from './zones';

export type { Skipped } from './ics-repair';

export class CalendarParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CalendarParseError';
  }
}

/** A limit of expand.ts was reached: the whole object is unreasonable, not one component. */
export class CalendarLimitError extends CalendarParseError {}

export function fail(message: string): never {
  throw new CalendarParseError(message);
}

/** Whole-text parse; null when ical.js refuses the text or reads something other than VCALENDARs. */
function parseWhole(text: string): unknown[] | null {
  try {
    const parsed: unknown = ICAL.parse(text);
    if (!Array.isArray(parsed) || parsed.length === 0) return null;
    const list = (typeof parsed[0] === 'string' ? [parsed] : parsed) as unknown[];
    return list.every((j) => Array.isArray(j) && j[0] === 'vcalendar') ? list : null;
  } catch {
    return null;
  }
}

/**
 * The VCALENDARs of the text. When ical.js refuses the text as a whole, it is read line by line
 * (ics-repair.ts): each unreadable line is dropped and pushed to `skipped`. Fails only when no VCALENDAR
 * is left.
 */
export function rootsOf(text: string, skipped: Skipped[]): ICAL.Component[] {
  let list = parseWhole(repairText(text));
  if (!list) {
    const notes: Skipped[] = [];
    list = parseWhole(salvageText(text, notes));
    skipped.push(...notes);
  }
  if (!list) fail('not valid iCalendar: no VCALENDAR');
  const parsed = list;
  return parsed.map((j) => new ICAL.Component(j as any[]));
}

/**
 * The VTIMEZONE as ical.js needs it to see every onset (a copy; the caller's component is unchanged):
 * - An observance with RDATEs gets its DTSTART as one more RDATE, and each RDATE property holds one
 *   value. ical.js takes such an observance's onsets from its RDATEs alone (no RRULE), so the DTSTART
 *   onset was lost, and from the first value of each RDATE line only. RFC 5545 3.8.2.4: DTSTART is
 *   the first onset.
 * - A time before the zone's first onset is in that onset's TZOFFSETFROM (the offset in use until
 *   then), not UTC as ical.js reads it: an observance from 1601 with that offset stands before it.
 */
function withAllOnsets(vtz: ICAL.Component): ICAL.Component {
  const copy = new ICAL.Component(JSON.parse(JSON.stringify(vtz.toJSON())));
  let first: { start: ICAL.Time; from: ICAL.UtcOffset } | null = null;
  for (const o of copy.getAllSubcomponents()) {
    const dtstart = o.getFirstPropertyValue('dtstart');
    const from = o.getFirstPropertyValue('tzoffsetfrom');
    if (!(dtstart instanceof ICAL.Time) || !(from instanceof ICAL.UtcOffset)) continue;
    if (!first || dtstart.compare(first.start) < 0) first = { start: dtstart, from };
    if (!o.hasProperty('rdate')) continue;
    const values = o.getAllProperties('rdate').flatMap((p) => p.getValues());
    o.removeAllProperties('rdate');
    for (const v of o.hasProperty('rrule') ? values : [dtstart, ...values]) o.addPropertyWithValue('rdate', v);
  }
  const before = ICAL.Time.fromDateTimeString('1601-01-01T00:00:00');
  if (first && first.start.compare(before) > 0) {
    const o = new ICAL.Component('standard');
    o.addPropertyWithValue('dtstart', before);
    o.addPropertyWithValue('tzoffsetfrom', first.from);
    o.addPropertyWithValue('tzoffsetto', first.from);
    copy.addSubcomponent(o);
  }
  return copy;
}

/**
 * Timezones built from VTIMEZONE text, reused across calls: ical.js expands a zone's transitions from its
 * first DTSTART (Outlook writes 1601), which costs tens of milliseconds per zone and object otherwise.
 * Keyed by the VTIMEZONE's whole text, so two different definitions under one TZID never mix. Bounded.
 */
const zoneCache = new Map<string, ICAL.Timezone>();
const ZONE_CACHE_MAX = 200;

function timezoneFor(vtz: ICAL.Component, tzid: string): ICAL.Timezone {
  const key = vtz.toString();
  let tz = zoneCache.get(key);
  if (!tz) {
    tz = new ICAL.Timezone({ component: withAllOnsets(vtz), tzid });
    if (zoneCache.size >= ZONE_CACHE_MAX) zoneCache.delete(zoneCache.keys().next().value as string);
    zoneCache.set(key, tz);
  }
  return tz;
}

/**
 * A VTIMEZONE's offsets are in range (RFC 5545 3.3.14: hours 00-23, minutes and seconds 00-59), even
 * for a zone we read from the tz database: `TZOFFSETTO:+5744` (meant as +00:57:44) is not iCalendar,
 * and the reference readers reject the object too (docs/calendars.md).
 */
function checkOffsets(vtz: ICAL.Component, tzid: string): void {
  for (const observance of vtz.getAllSubcomponents()) {
    for (const name of ['tzoffsetfrom', 'tzoffsetto']) {
      for (const prop of observance.getAllProperties(name)) {
        // The text as written: ical.js' UtcOffset wraps an hour of 57 into 3 without a word.
        const text = prop.toJSON()[3];
        const m = typeof text === 'string' ? /^[+-](\d\d):(\d\d)(?::(\d\d))?$/.exec(text) : null;
        const ok = m !== null && Number(m[1]) <= 23 && Number(m[2]) <= 59 && Number(m[3] ?? 0) <= 59;
        if (!ok) fail(`VTIMEZONE ${tzid}: ${name.toUpperCase()} out of range (${String(text).slice(0, 20)})`);
      }
    }
  }
}

/**
 * Register the object's VTIMEZONEs with ical.js' TimezoneService and take them out of the tree, so that
 * every TZID resolves through the service (to the cached Timezone). A TZID that names an IANA or Windows
 * zone (zones.ts) is not registered: it is read with the tz database. When a TZID is defined twice, the
 * first definition counts. Returns the function that restores the previous registrations.
 */
export function registerTimezones(roots: ICAL.Component[], skipped: Skipped[]): () => void {
  const previous = new Map<string, ICAL.Timezone | undefined>();
  const restore = () => {
    for (const [tzid, tz] of previous) {
      ICAL.TimezoneService.remove(tzid);
      if (tz) ICAL.TimezoneService.register(tz, tzid);
    }
  };
  try {
    for (const root of roots) {
      for (const vtz of root.getAllSubcomponents('vtimezone')) {
        const tzid = vtz.getFirstPropertyValue('tzid');
        // An unreadable VTIMEZONE costs that VTIMEZONE: its TZID is then read as zones.ts says (or the host's zone).
        if (typeof tzid !== 'string' || !tzid) {
          skipped.push({ what: 'VTIMEZONE', reason: 'no TZID' });
          continue;
        }
        if (['z', 'utc', 'gmt'].includes(tzid.toLowerCase())) continue; // never redefine UTC
        if (previous.has(tzid)) continue;
        try {
          checkOffsets(vtz, tzid);
          if (!vtz.getAllSubcomponents().some((o) => o.name === 'standard' || o.name === 'daylight')) fail('no STANDARD or DAYLIGHT');
          if (ianaZoneFor(tzid)) continue;
          const tz = timezoneFor(vtz, tzid);
          tz.utcOffset(ICAL.Time.fromDateTimeString('2000-01-01T00:00:00')); // reads the observances now, not mid-event
          previous.set(tzid, ICAL.TimezoneService.has(tzid) ? ICAL.TimezoneService.get(tzid) : undefined);
          ICAL.TimezoneService.register(tz, tzid);
        } catch (e) {
          skipped.push({ what: `VTIMEZONE ${tzid.slice(0, 60)}`, reason: (e as Error).message.slice(0, 120) });
        }
      }
      root.removeAllSubcomponents('vtimezone');
    }
  } catch (e) {
    restore();
    throw e;
  }
  return restore;
}
