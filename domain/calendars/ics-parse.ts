/**
 * Reading iCalendar text for expand.ts: the repairs real publishers need, the VCALENDAR roots, and the
 * object's VTIMEZONEs registered with ical.js for the duration of one call. Pure: no I/O.
 */
import ICAL from 'ical.js';
import { ianaZoneFor } from './zones';

export class CalendarParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CalendarParseError';
  }
}

export function fail(message: string): never {
  throw new CalendarParseError(message);
}

/** Date properties whose value may be written as a bare date (`DTSTART:20190101`) without VALUE=DATE. */
const DATE_LINE = /^(DTSTART|DTEND|DUE|RECURRENCE-ID|RDATE|EXDATE)((?:;[^:\r\n]*)?):(\d{8}(?:,\d{8})*)\r?$/gim;
/** An RRULE, RDATE or EXDATE with no value at all. */
const EMPTY_DATES = /^(?:RRULE|RDATE|EXDATE)(?:;[^:\r\n]*)?:[ \t]*\r?\n/gim;

/**
 * The repairs the reference readers also make: a date written without `VALUE=DATE`
 * (`DTSTART:20190101`, `RECURRENCE-ID:20200914`; RFC 5545 requires the parameter, publishers of
 * holiday feeds leave it out) gets it; an empty RRULE, RDATE or EXDATE line is dropped; a byte order mark goes.
 */
export function repairText(text: string): string {
  let out = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  out = out.replace(EMPTY_DATES, '');
  return out.replace(DATE_LINE, (line, name: string, params: string, value: string) =>
    /;VALUE=/i.test(params) ? line : `${name}${params};VALUE=DATE:${value}`,
  );
}

export function rootsOf(text: string): ICAL.Component[] {
  let parsed: unknown;
  try {
    parsed = ICAL.parse(repairText(text));
  } catch (e) {
    fail(`not valid iCalendar: ${(e as Error).message}`);
  }
  if (!Array.isArray(parsed) || parsed.length === 0) fail('not valid iCalendar: no VCALENDAR');
  const list = (typeof parsed[0] === 'string' ? [parsed] : parsed) as unknown[];
  const roots = list.map((j) => new ICAL.Component(j as any[]));
  if (roots.some((r) => r.name !== 'vcalendar')) fail('not valid iCalendar: the top-level component is not a VCALENDAR');
  return roots;
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
    tz = new ICAL.Timezone({ component: vtz, tzid });
    if (zoneCache.size >= ZONE_CACHE_MAX) zoneCache.delete(zoneCache.keys().next().value as string);
    zoneCache.set(key, tz);
  }
  return tz;
}

/**
 * Register the object's VTIMEZONEs with ical.js' TimezoneService and take them out of the tree, so that
 * every TZID resolves through the service (to the cached Timezone). A TZID that names an IANA or Windows
 * zone (zones.ts) is not registered: it is read with the tz database. When a TZID is defined twice, the
 * first definition counts. Returns the function that restores the previous registrations.
 */
export function registerTimezones(roots: ICAL.Component[]): () => void {
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
        if (typeof tzid !== 'string' || !tzid) fail('VTIMEZONE without TZID');
        if (['z', 'utc', 'gmt'].includes(tzid.toLowerCase())) continue; // never redefine UTC
        if (previous.has(tzid) || ianaZoneFor(tzid)) continue;
        previous.set(tzid, ICAL.TimezoneService.has(tzid) ? ICAL.TimezoneService.get(tzid) : undefined);
        ICAL.TimezoneService.register(timezoneFor(vtz, tzid), tzid);
      }
      root.removeAllSubcomponents('vtimezone');
    }
  } catch (e) {
    restore();
    throw e;
  }
  return restore;
}
