/**
 * Busy time of an iCalendar object (a CalDAV resource or a whole ICS feed), expanded inside a window.
 * Pure: no I/O. Parsing and recurrence with ical.js; wall-clock times without a VTIMEZONE with luxon.
 *
 * What blocks and what does not:
 * - Every VEVENT of every VCALENDAR in the text (VTODO, VJOURNAL, VFREEBUSY are ignored). Events are
 *   grouped by UID: the master (no RECURRENCE-ID) and its overrides (RECURRENCE-ID), in the same
 *   VCALENDAR or not.
 * - A master expands its RRULE(s) and RDATEs, minus its EXDATEs and minus the occurrences an override
 *   replaces (matched by instant, or by date for all-day events). An override stands on its own: it
 *   blocks its own DTSTART..DTEND (moved occurrence), or nothing when it is cancelled (cancelled
 *   occurrence). An override without its master (an invitation to one occurrence) is a plain event.
 *   RANGE=THISANDFUTURE is treated as an override of that one occurrence.
 * - TRANSP:TRANSPARENT, STATUS:CANCELLED and an event the host declined (an ATTENDEE whose address is
 *   one of `hostEmails`, case-insensitive, with PARTSTAT=DECLINED) block nothing. Each component
 *   (master or override) is judged on its own properties.
 * - All-day events (VALUE=DATE) block the host's whole local day(s) in `hostZone`: from the local
 *   midnight of DTSTART to the local midnight of DTEND (exclusive; one day when DTEND is absent).
 * - Times with a TZID use the object's VTIMEZONE of that name (registered with ical.js' TimezoneService
 *   for the duration of the call, then the previous registrations are restored); a TZID without a
 *   VTIMEZONE that is an IANA name uses the runtime's tz database; any other TZID and floating times are
 *   in `hostZone`. UTC times are UTC.
 * - Duration: DTEND (the same exact duration for every occurrence, RFC 5545 3.8.5.3), else DURATION
 *   (added on the wall clock), else one day for all-day events and zero (blocks nothing) otherwise. An
 *   override without DTEND/DURATION takes its master's. DTEND before DTSTART counts as zero.
 * - Only occurrences overlapping [from, to) are returned, sorted by start.
 *
 * Caps (an unbounded or hostile RRULE cannot blow up a sync):
 * - DAILY and WEEKLY rules without COUNT are fast-forwarded to just before `from` (whole multiples of
 *   the interval, so the rule's alignment is kept): a daily stand-up since 1995 costs the same as one
 *   that started last week.
 * - {@link MAX_OCCURRENCES_PER_EVENT} (10,000) occurrences are generated per master at most (counted
 *   after the fast-forward, including those before `from` and those excluded); the rest of that
 *   event's recurrence is ignored. That is 27 years of a daily event or a week of a minutely one.
 * - {@link MAX_OCCURRENCES_PER_CALL} (200,000) occurrences are generated in one call at most; past it
 *   the call throws CalendarParseError (the object is unreasonable, not silently half-read).
 *
 * Errors: text that is not iCalendar, a VEVENT without a usable DTSTART, an unparseable RRULE, date or
 * VTIMEZONE: CalendarParseError, never anything else. An invalid `hostZone` (a caller's bug, not the
 * calendar's) is a RangeError.
 */
import ICAL from 'ical.js';
import { DateTime, IANAZone } from 'luxon';

export interface BusyOccurrence {
  uid: string;
  /** epoch ms, inclusive */
  start: number;
  /** epoch ms, exclusive */
  end: number;
}

export interface ExpandOptions {
  /** epoch ms, inclusive */
  from: number;
  /** epoch ms, exclusive */
  to: number;
  /** The host's addresses: an ATTENDEE among them with PARTSTAT=DECLINED makes the event block nothing. */
  hostEmails: string[];
  /** IANA zone for all-day events, floating times and TZIDs that are neither defined nor IANA names. */
  hostZone: string;
}

export class CalendarParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CalendarParseError';
  }
}

export const MAX_OCCURRENCES_PER_EVENT = 10_000;
export const MAX_OCCURRENCES_PER_CALL = 200_000;

const DAY_MS = 86_400_000;

type Time = ICAL.Time;
type Component = ICAL.Component;

/** How an occurrence's end is found from its start. */
type Length =
  | { kind: 'days'; days: number } // all-day
  | { kind: 'exact'; ms: number } // DTEND - DTSTART
  | { kind: 'wall'; duration: ICAL.Duration }; // DURATION on the wall clock

interface Ctx {
  hostZone: string;
  hostEmails: Set<string>;
  from: number;
  to: number;
  budget: { left: number };
}

function fail(message: string): never {
  throw new CalendarParseError(message);
}

function lower(v: unknown): string {
  return typeof v === 'string' ? v.trim().toLowerCase() : '';
}

/**
 * ical.js normalises an impossible date (2030-13-45T99:00) into a later one; a calendar that writes it is
 * malformed. Checks the property's raw jCal values (date `YYYY-MM-DD`, date-time `YYYY-MM-DDThh:mm:ss[Z]`).
 */
function checkRaw(prop: ICAL.Property, what: string): void {
  const raw = prop.toJSON().slice(3);
  for (const v of raw) {
    if (typeof v !== 'string') continue; // periods (RDATE;VALUE=PERIOD) are checked by ical.js
    const m = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2})Z?)?$/.exec(v);
    if (!m) continue;
    const [mo, d, h, mi, sec] = [m[2], m[3], m[4] ?? '0', m[5] ?? '0', m[6] ?? '0'].map(Number);
    if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60) fail(`${what} is not a valid date: ${v}`);
  }
}

function timeOf(comp: Component, name: string): Time | null {
  const prop = comp.getFirstProperty(name);
  if (!prop) return null;
  checkRaw(prop, name.toUpperCase());
  const v = prop.getFirstValue();
  if (!(v instanceof ICAL.Time)) fail(`${name.toUpperCase()} is not a date or date-time`);
  return v;
}

function tzidOf(comp: Component, name: string): string | undefined {
  const p = comp.getFirstProperty(name)?.getParameter('tzid');
  return typeof p === 'string' ? p : undefined;
}

/** The instant of a date-time: its own zone when ical.js resolved one, else the TZID as an IANA zone, else the host's. */
function instantOf(t: Time, tzid: string | undefined, ctx: Ctx): number {
  const zone = t.zone;
  let ms: number;
  if (zone === ICAL.Timezone.utcTimezone || (zone && zone !== ICAL.Timezone.localTimezone && zone.tzid !== 'floating')) {
    ms = t.toUnixTime() * 1000;
  } else {
    const name = tzid && IANAZone.isValidZone(tzid) ? tzid : ctx.hostZone;
    ms = DateTime.fromObject(
      { year: t.year, month: t.month, day: t.day, hour: t.hour, minute: t.minute, second: t.second },
      { zone: name },
    ).toMillis();
  }
  if (!Number.isFinite(ms)) fail(`invalid date-time ${t.toString()}`);
  return ms;
}

/** Local midnight, in the host's zone, of a calendar date shifted by `plusDays`. */
function hostDayStart(t: Time, plusDays: number, ctx: Ctx): number {
  const d = DateTime.fromObject({ year: t.year, month: t.month, day: t.day }, { zone: 'UTC' }).plus({ days: plusDays });
  if (!d.isValid) fail(`invalid date ${t.toString()}`);
  const ms = DateTime.fromObject({ year: d.year, month: d.month, day: d.day }, { zone: ctx.hostZone }).toMillis();
  if (!Number.isFinite(ms)) fail(`invalid date ${t.toString()}`);
  return ms;
}

function dateKey(t: Time): string {
  return `${t.year}-${t.month}-${t.day}`;
}

/** Key matching an occurrence with its RECURRENCE-ID or EXDATE: the date for dates, the instant otherwise. */
function occurrenceKey(t: Time, tzid: string | undefined, ctx: Ctx): string {
  return t.isDate ? `d:${dateKey(t)}` : `t:${instantOf(t, tzid, ctx)}`;
}

function lengthOf(comp: Component, start: Time, startTzid: string | undefined, ctx: Ctx): Length | null {
  const end = timeOf(comp, 'dtend');
  if (end) {
    if (start.isDate) {
      const days = Math.round((Date.UTC(end.year, end.month - 1, end.day) - Date.UTC(start.year, start.month - 1, start.day)) / DAY_MS);
      return { kind: 'days', days: Math.max(days, 0) };
    }
    const ms = instantOf(end, tzidOf(comp, 'dtend'), ctx) - instantOf(start, startTzid, ctx);
    return { kind: 'exact', ms: Math.max(ms, 0) };
  }
  const durProp = comp.getFirstProperty('duration');
  if (durProp) {
    const dur = durProp.getFirstValue();
    if (!(dur instanceof ICAL.Duration)) fail('DURATION is not a duration');
    if (dur.isNegative) return start.isDate ? { kind: 'days', days: 0 } : { kind: 'exact', ms: 0 };
    if (start.isDate) return { kind: 'days', days: Math.ceil(dur.toSeconds() / 86_400) };
    return { kind: 'wall', duration: dur };
  }
  return null;
}

/** [start, end) of one occurrence starting at `occ` (in the zone of the component's DTSTART). */
function span(occ: Time, tzid: string | undefined, length: Length, ctx: Ctx): [number, number] {
  if (occ.isDate) {
    const days = length.kind === 'days' ? length.days : 1;
    return [hostDayStart(occ, 0, ctx), hostDayStart(occ, days, ctx)];
  }
  const start = instantOf(occ, tzid, ctx);
  switch (length.kind) {
    case 'exact':
      return [start, start + length.ms];
    case 'wall': {
      const end = occ.clone();
      end.addDuration(length.duration);
      return [start, Math.max(start, instantOf(end, tzid, ctx))];
    }
    case 'days': // a date-time DTSTART with a date DTEND: treat the days as 24 h each
      return [start, start + length.days * DAY_MS];
  }
}

function blocks(comp: Component, ctx: Ctx): boolean {
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

function overlaps(start: number, end: number, ctx: Ctx): boolean {
  return end > start && start < ctx.to && end > ctx.from;
}

/**
 * A later DTSTART for a DAILY/WEEKLY rule without COUNT, a whole number of intervals ahead, so that
 * expansion starts just before the window instead of at an old DTSTART. Null when not applicable.
 */
function fastForward(master: Component, dtstart: Time, tzid: string | undefined, length: Length, ctx: Ctx): Time | null {
  const rules = master.getAllProperties('rrule');
  if (rules.length !== 1) return null;
  const rule = rules[0].getFirstValue();
  if (!(rule instanceof ICAL.Recur) || rule.count) return null;
  const periodDays = rule.freq === 'DAILY' ? 1 : rule.freq === 'WEEKLY' ? 7 : 0;
  if (!periodDays) return null;
  const step = periodDays * (rule.interval || 1);
  const startMs = dtstart.isDate ? hostDayStart(dtstart, 0, ctx) : instantOf(dtstart, tzid, ctx);
  const lengthMs = length.kind === 'days' ? length.days * DAY_MS : length.kind === 'exact' ? length.ms : length.duration.toSeconds() * 1000;
  // Two days of slack for zone offsets; the first occurrence after the jump ends before `from`.
  const target = ctx.from - lengthMs - 2 * DAY_MS;
  const k = Math.floor((target - startMs) / DAY_MS / step);
  if (k <= 0) return null;
  const shifted = dtstart.clone();
  shifted.adjust(k * step, 0, 0, 0);
  return shifted;
}

interface Group {
  masters: Component[];
  overrides: Component[];
}

function expandMaster(uid: string, master: Component, overridden: Set<string>, ctx: Ctx, out: BusyOccurrence[]): void {
  const dtstart = timeOf(master, 'dtstart');
  if (!dtstart) fail(`VEVENT ${uid} has no DTSTART`);
  const tzid = tzidOf(master, 'dtstart');
  const length = lengthOf(master, dtstart, tzid, ctx) ?? (dtstart.isDate ? { kind: 'days', days: 1 } : { kind: 'exact', ms: 0 });
  const blocking = blocks(master, ctx);
  const recurring = master.hasProperty('rrule') || master.hasProperty('rdate');
  if (!recurring) {
    if (!blocking || overridden.has(occurrenceKey(dtstart, tzid, ctx))) return;
    const [s, e] = span(dtstart, tzid, length, ctx);
    if (overlaps(s, e, ctx)) out.push({ uid, start: s, end: e });
    return;
  }
  if (!blocking) return; // its overrides are judged on their own

  const exdates = new Set<string>();
  const exdays = new Set<string>(); // EXDATE;VALUE=DATE on a date-time series: that local day's occurrence
  for (const prop of master.getAllProperties('exdate')) {
    checkRaw(prop, 'EXDATE');
    const ptz = typeof prop.getParameter('tzid') === 'string' ? (prop.getParameter('tzid') as string) : undefined;
    for (const v of prop.getValues()) {
      if (!(v instanceof ICAL.Time)) fail('EXDATE is not a date or date-time');
      if (v.isDate && !dtstart.isDate) exdays.add(dateKey(v));
      else exdates.add(occurrenceKey(v, ptz ?? tzid, ctx));
    }
  }

  const start = fastForward(master, dtstart, tzid, length, ctx) ?? dtstart;
  const expansion = new ICAL.RecurExpansion({ component: master, dtstart: start });
  for (let n = 0; ; n++) {
    const occ = expansion.next();
    if (!occ) break;
    if (n >= MAX_OCCURRENCES_PER_EVENT) break;
    if (--ctx.budget.left < 0) {
      fail(`more than ${MAX_OCCURRENCES_PER_CALL} occurrences in one calendar object`);
    }
    const [s, e] = span(occ, tzid, length, ctx);
    if (s >= ctx.to) break; // ascending: nothing later overlaps
    if (!overlaps(s, e, ctx)) continue;
    const key = occurrenceKey(occ, tzid, ctx);
    if (exdates.has(key) || overridden.has(key)) continue;
    if (!occ.isDate && exdays.has(dateKey(occ))) continue;
    out.push({ uid, start: s, end: e });
  }
}

function expandOverride(uid: string, override: Component, master: Component | undefined, ctx: Ctx, out: BusyOccurrence[]): void {
  if (!blocks(override, ctx)) return;
  const dtstart = timeOf(override, 'dtstart') ?? timeOf(override, 'recurrence-id');
  if (!dtstart) fail(`VEVENT ${uid} override has no DTSTART`);
  const tzid = override.hasProperty('dtstart') ? tzidOf(override, 'dtstart') : tzidOf(override, 'recurrence-id');
  let length = lengthOf(override, dtstart, tzid, ctx);
  if (!length && master) {
    const mStart = timeOf(master, 'dtstart');
    if (mStart) length = lengthOf(master, mStart, tzidOf(master, 'dtstart'), ctx);
  }
  const [s, e] = span(dtstart, tzid, length ?? (dtstart.isDate ? { kind: 'days', days: 1 } : { kind: 'exact', ms: 0 }), ctx);
  if (overlaps(s, e, ctx)) out.push({ uid, start: s, end: e });
}

function rootsOf(text: string): Component[] {
  let parsed: unknown;
  try {
    parsed = ICAL.parse(text);
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

function timezoneFor(vtz: Component, tzid: string): ICAL.Timezone {
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
 * every TZID resolves through the service (to the cached Timezone). Returns the function that restores
 * the previous registrations.
 */
function registerTimezones(roots: Component[]): () => void {
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
        if (!previous.has(tzid)) previous.set(tzid, ICAL.TimezoneService.has(tzid) ? ICAL.TimezoneService.get(tzid) : undefined);
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

/**
 * The busy occurrences of an iCalendar text inside [from, to). See the file comment for the rules.
 * Throws CalendarParseError on malformed input (and RangeError on an invalid hostZone).
 */
export function expandBusy(icsText: string, opts: ExpandOptions): BusyOccurrence[] {
  if (!IANAZone.isValidZone(opts.hostZone)) throw new RangeError(`invalid hostZone: ${opts.hostZone}`);
  const ctx: Ctx = {
    hostZone: opts.hostZone,
    hostEmails: new Set(opts.hostEmails.map((e) => e.trim().toLowerCase()).filter(Boolean)),
    from: opts.from,
    to: opts.to,
    budget: { left: MAX_OCCURRENCES_PER_CALL },
  };
  if (typeof icsText !== 'string') fail('not valid iCalendar: not text');
  let restore: (() => void) | null = null;
  try {
    const roots = rootsOf(icsText);
    restore = registerTimezones(roots);
    const groups = new Map<string, Group>();
    for (const root of roots) {
      for (const ev of root.getAllSubcomponents('vevent')) {
        const uid = ev.getFirstPropertyValue('uid');
        const key = typeof uid === 'string' && uid ? uid : `(no uid ${groups.size})`;
        let g = groups.get(key);
        if (!g) groups.set(key, (g = { masters: [], overrides: [] }));
        (ev.hasProperty('recurrence-id') ? g.overrides : g.masters).push(ev);
      }
    }
    const out: BusyOccurrence[] = [];
    if (!(ctx.to > ctx.from)) return out;
    for (const [uid, g] of groups) {
      const overridden = new Set<string>();
      for (const o of g.overrides) {
        const rid = timeOf(o, 'recurrence-id');
        if (rid) overridden.add(occurrenceKey(rid, tzidOf(o, 'recurrence-id'), ctx));
      }
      for (const m of g.masters) expandMaster(uid, m, overridden, ctx, out);
      for (const o of g.overrides) expandOverride(uid, o, g.masters[0], ctx, out);
    }
    out.sort((a, b) => a.start - b.start || a.end - b.end || (a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0));
    return out;
  } catch (e) {
    if (e instanceof CalendarParseError) throw e;
    throw new CalendarParseError(`malformed iCalendar: ${e instanceof Error ? e.message : String(e)}`);
  } finally {
    restore?.();
  }
}
