/**
 * The occurrences of one master VEVENT (expand.ts): DTSTART, every RRULE, every RDATE, as a set, minus
 * EXDATEs and overridden occurrences, with RANGE=THISANDFUTURE overrides applied. Pure: no I/O.
 */
import ICAL from 'ical.js';
import { DateTime } from 'luxon';
import { CalendarLimitError, fail } from './ics-parse';
import { ianaZoneFor } from './zones';
import {
  checkRaw,
  DAY_MS,
  dateKey,
  durationLength,
  hostDayStart,
  instantOf,
  lengthMs,
  lengthOf,
  occurrenceKey,
  overlaps,
  span,
  timeOf,
  tzidOf,
  type Component,
  type Ctx,
  type Length,
  type Time,
} from './times';

export interface BusyOut {
  uid: string;
  start: number;
  end: number;
}

/** A RANGE=THISANDFUTURE override: later occurrences move by `deltaMs` and last `lengthMs` (null: their own). */
export interface Future {
  ridMs: number;
  deltaMs: number;
  lengthMs: number | null;
}

function lower(v: unknown): string {
  return typeof v === 'string' ? v.trim().toLowerCase() : '';
}

export function blocks(comp: Component, ctx: Ctx): boolean {
  if (lower(comp.getFirstPropertyValue('status')) === 'cancelled') return false;
  if (lower(comp.getFirstPropertyValue('transp')) === 'transparent') return false;
  if (ctx.hostEmails.size > 0) {
    for (const att of comp.getAllProperties('attendee')) {
      if (lower(att.getParameter('partstat')) !== 'declined') continue;
      const addresses = [lower(att.getFirstValue()).replace(/^mailto:/, ''), lower(att.getParameter('email'))];
      if (addresses.some((a) => a && ctx.hostEmails.has(a))) return false;
    }
  }
  return true;
}

const ZERO = (t: Time): Length => (t.isDate ? { kind: 'days', days: 1 } : { kind: 'exact', ms: 0 });

export function futureOf(o: Component, master: Component, ctx: Ctx): Future {
  const rid = timeOf(o, 'recurrence-id')!;
  const ridMs = span(rid, tzidOf(o, 'recurrence-id'), ZERO(rid), ctx)[0];
  const start = timeOf(o, 'dtstart') ?? rid;
  const tzid = o.hasProperty('dtstart') ? tzidOf(o, 'dtstart') : tzidOf(o, 'recurrence-id');
  const own = lengthOf(o, start, tzid, ctx);
  const [s, e] = span(start, tzid, own ?? ZERO(start), ctx);
  void master;
  return { ridMs, deltaMs: s - ridMs, lengthMs: own ? e - s : null };
}

const RULE_PARTS = new Set([
  'freq',
  'until',
  'count',
  'interval',
  'bysecond',
  'byminute',
  'byhour',
  'byday',
  'bymonthday',
  'byyearday',
  'byweekno',
  'bymonth',
  'bysetpos',
  'wkst',
  'rscale',
  'skip',
]);

function rulesOf(master: Component): ICAL.Recur[] {
  return master.getAllProperties('rrule').map((prop) => {
    const json = prop.toJSON()[3] as unknown;
    const parts = json && typeof json === 'object' ? Object.keys(json) : [];
    const unknown = parts.filter((p) => !RULE_PARTS.has(p.toLowerCase()));
    if (unknown.length) fail(`RRULE has an unknown part: ${unknown.map((p) => p.toUpperCase()).join(', ')}`);
    const rule = prop.getFirstValue();
    if (!(rule instanceof ICAL.Recur) || !rule.freq) fail('RRULE without FREQ');
    return rule;
  });
}

/**
 * A later start for a DAILY/WEEKLY rule without COUNT, a whole number of intervals ahead, so that
 * expansion starts just before the window instead of at an old DTSTART. Null when not applicable.
 */
function fastForward(rule: ICAL.Recur, dtstart: Time, tzid: string | undefined, length: Length, ctx: Ctx): Time | null {
  if (rule.count) return null;
  const periodDays = rule.freq === 'DAILY' ? 1 : rule.freq === 'WEEKLY' ? 7 : 0;
  if (!periodDays) return null;
  const step = periodDays * (rule.interval || 1);
  const startMs = dtstart.isDate ? hostDayStart(dtstart, 0, ctx) : instantOf(dtstart, tzid, ctx);
  // Two days of slack for zone offsets; the first occurrence after the jump ends before `from`.
  const target = ctx.from - Math.abs(lengthMs(length)) - 2 * DAY_MS;
  const k = Math.floor((target - startMs) / DAY_MS / step);
  if (k <= 0) return null;
  const shifted = dtstart.clone();
  shifted.adjust(k * step, 0, 0, 0);
  return shifted;
}

/**
 * ical.js compares a UTC UNTIL with the occurrences' own fields; when DTSTART is wall-clock time read with
 * the tz database (no registered VTIMEZONE), UNTIL becomes the same instant on that wall clock.
 */
function untilOnWallClock(rule: ICAL.Recur, dtstart: Time, tzid: string | undefined, ctx: Ctx): ICAL.Recur {
  const until = rule.until;
  if (until && !until.isDate && dtstart.isDate) {
    // An all-day series with a date-time UNTIL (Outlook writes the local midnight of the last day, in
    // UTC): the last day is UNTIL's date in the calendar's zone, and it is kept.
    const copy = rule.clone();
    const day = calendarDate(until, ctx);
    copy.until = new ICAL.Time({ year: day.year, month: day.month, day: day.day, isDate: true }, ICAL.Timezone.localTimezone);
    return copy;
  }
  if (!until || until.isDate || dtstart.isDate || until.zone !== ICAL.Timezone.utcTimezone) return rule;
  const zone = dtstart.zone;
  if (zone === ICAL.Timezone.utcTimezone || (zone && zone !== ICAL.Timezone.localTimezone && zone.tzid !== 'floating')) return rule;
  const name = tzid ? (ianaZoneFor(tzid) ?? ctx.hostZone) : ctx.floatingZone;
  const wall = DateTime.fromMillis(until.toUnixTime() * 1000, { zone: name });
  const copy = rule.clone();
  copy.until = new ICAL.Time(
    { year: wall.year, month: wall.month, day: wall.day, hour: wall.hour, minute: wall.minute, second: wall.second, isDate: false },
    ICAL.Timezone.localTimezone,
  );
  return copy;
}

/**
 * The calendar date a date-time names, for an all-day series: the date as written when it is wall-clock
 * time (a TZID or floating), the date in the calendar's zone when it is UTC.
 */
function calendarDate(t: Time, ctx: Ctx): { year: number; month: number; day: number } {
  if (t.zone !== ICAL.Timezone.utcTimezone) return { year: t.year, month: t.month, day: t.day };
  const wall = DateTime.fromMillis(t.toUnixTime() * 1000, { zone: ctx.calendarZone });
  return { year: wall.year, month: wall.month, day: wall.day };
}

export interface MasterInput {
  uid: string;
  master: Component;
  /** Overrides by occurrence key (the latest version of each). */
  overrides: Map<string, Component>;
  /** THISANDFUTURE overrides, by ridMs ascending. */
  futures: Future[];
  ctx: Ctx;
  out: BusyOut[];
  maxPerEvent: number;
}

/** Pushes the master's busy occurrences; returns the keys of the overrides the master EXDATE'd (they block nothing). */
export function expandMaster(input: MasterInput): Set<string> {
  const { uid, master, overrides, futures, ctx, out } = input;
  const dtstart = timeOf(master, 'dtstart');
  if (!dtstart) fail(`VEVENT ${uid} has no DTSTART`);
  const tzid = tzidOf(master, 'dtstart');
  const length = lengthOf(master, dtstart, tzid, ctx) ?? ZERO(dtstart);
  const rules = rulesOf(master);

  const exdates = new Set<string>();
  const exdays = new Set<string>(); // EXDATE;VALUE=DATE on a date-time series: that local day's occurrence
  for (const prop of master.getAllProperties('exdate')) {
    checkRaw(prop, 'EXDATE');
    const p = prop.getParameter('tzid');
    const ptz = typeof p === 'string' ? p : undefined;
    for (const v of prop.getValues()) {
      if (!(v instanceof ICAL.Time)) fail('EXDATE is not a date or date-time');
      if (v.isDate && !dtstart.isDate) exdays.add(dateKey(v));
      else if (!v.isDate && dtstart.isDate) {
        // A date-time EXDATE on an all-day series (Outlook: `EXDATE;TZID=…:20200106T000000`): that day.
        const d = calendarDate(v, ctx);
        exdates.add(`d:${d.year}-${d.month}-${d.day}`);
      } else exdates.add(occurrenceKey(v, ptz ?? tzid, ctx));
    }
  }
  const isExcluded = (key: string, t: Time) => exdates.has(key) || (!t.isDate && exdays.has(dateKey(t)));
  const excludedOverrides = new Set<string>();
  for (const key of overrides.keys()) if (exdates.has(key)) excludedOverrides.add(key);
  if (!blocks(master, ctx)) return excludedOverrides; // its overrides are judged on their own

  const seen = new Set<string>();
  let generated = 0;
  /** Returns false when the occurrence starts at or after the window's end. */
  const add = (occ: Time, occTzid: string | undefined, len: Length): boolean => {
    if (++generated > input.maxPerEvent) fail(`VEVENT ${uid} has more than ${input.maxPerEvent} occurrences before the window ends`);
    if (--ctx.budget.left < 0) throw new CalendarLimitError(`more than ${200_000} occurrences in one calendar object`);
    let [s, e] = span(occ, occTzid, len, ctx);
    if (s >= ctx.to && futures.length === 0) return false;
    const key = occurrenceKey(occ, occTzid, ctx);
    if (seen.has(key)) return true;
    seen.add(key);
    if (isExcluded(key, occ) || overrides.has(key)) return true;
    for (let i = futures.length - 1; i >= 0; i--) {
      const f = futures[i];
      if (f.ridMs >= s) continue;
      e = f.lengthMs === null ? e + f.deltaMs : s + f.deltaMs + f.lengthMs;
      s += f.deltaMs;
      break;
    }
    if (overlaps(s, e, ctx)) out.push({ uid, start: s, end: e });
    return s < ctx.to;
  };

  add(dtstart, tzid, length);
  for (const prop of master.getAllProperties('rdate')) {
    checkRaw(prop, 'RDATE');
    const p = prop.getParameter('tzid');
    const ptz = typeof p === 'string' ? p : tzid;
    for (const v of prop.getValues()) {
      if (v instanceof ICAL.Time) add(v, ptz, length);
      else if (v instanceof ICAL.Period) {
        const own = v.end ? lengthOf(periodComponent(v, ptz), v.start, ptz, ctx) : durationLength(v.duration, v.start);
        add(v.start, ptz, own ?? length);
      } else fail('RDATE is not a date, date-time or period');
    }
  }
  for (const rule of rules.map((r) => untilOnWallClock(r, dtstart, tzid, ctx))) {
    const start = fastForward(rule, dtstart, tzid, length, ctx) ?? dtstart;
    // COUNT is counted here, not by ical.js: its iterator ends a MONTHLY rule with BYMONTH one early
    // when BYMONTH names a month before DTSTART's (COUNT=9;BYDAY=+3WE;BYMONTH=1,…,12 from September
    // gives 8; docs/calendars.md). The rule without COUNT yields the same sequence, unbounded.
    const limit = rule.count ?? Infinity;
    const it = (rule.count ? withoutCount(rule) : rule).iterator(start);
    for (let n = 0; n < limit; n++) {
      const occ = it.next();
      if (!occ || !add(occ, tzid, length)) break;
    }
  }
  return excludedOverrides;
}

/** The same rule without its COUNT (the caller counts). */
function withoutCount(rule: ICAL.Recur): ICAL.Recur {
  const copy = rule.clone();
  copy.count = null;
  return copy;
}

/** A stand-in component with DTEND = the period's end, so lengthOf measures it like an event. */
function periodComponent(p: ICAL.Period, tzid: string | undefined): Component {
  const c = new ICAL.Component('vevent');
  const prop = c.addPropertyWithValue('dtend', p.end!);
  if (tzid) prop.setParameter('tzid', tzid);
  return c;
}
