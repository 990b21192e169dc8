/**
 * Busy time of an iCalendar object (a CalDAV resource or a whole ICS feed), expanded inside a window.
 * Pure: no I/O. Parsing and recurrence with ical.js; wall-clock times with luxon (times.ts), TZIDs as
 * zones.ts says. docs/calendars.md, "How busy time is read", is the long version; the rules:
 *
 * - Every VEVENT of every VCALENDAR in the text (VTODO, VJOURNAL, VFREEBUSY are ignored). Events are
 *   grouped by UID: the master (no RECURRENCE-ID) and its overrides (RECURRENCE-ID), in the same
 *   VCALENDAR or not. Of several copies of a master, only the one with the highest SEQUENCE counts (the
 *   later one on a tie); of several overrides of one occurrence, likewise.
 * - A master's occurrences are the set (no duplicates) of its DTSTART, every RRULE and every RDATE
 *   (a date, a date-time, or a PERIOD with its own end), minus its EXDATEs and minus the occurrences an
 *   override replaces (matched by instant, or by date for all-day events). An override blocks its own
 *   DTSTART..DTEND, or nothing when it is cancelled or its occurrence is EXDATE'd in the master (what
 *   Thunderbird leaves behind when one occurrence is deleted). An override without its master (an
 *   invitation to one occurrence) is a plain event. RANGE=THISANDFUTURE moves every later occurrence by
 *   the same offset and gives it the override's length (RFC 5545 3.8.4.4).
 * - TRANSP:TRANSPARENT, STATUS:CANCELLED and an event the host declined (an ATTENDEE whose address is
 *   one of `hostEmails`, case-insensitive, with PARTSTAT=DECLINED) block nothing. Each component
 *   (master or override) is judged on its own properties.
 * - All-day events (dates, with or without VALUE=DATE) block the host's whole local day(s) in
 *   `hostZone`: from the local midnight of DTSTART to the local midnight of DTEND (exclusive; one day
 *   when DTEND is absent).
 * - Floating times are in the calendar's X-WR-TIMEZONE when it names a zone, else in `hostZone`.
 * - Duration: DTEND (the same exact duration for every occurrence, RFC 5545 3.8.5.3), else DURATION
 *   (added on the wall clock), else one day for all-day events and zero (blocks nothing) otherwise. An
 *   override without DTEND/DURATION takes its master's. DTEND before DTSTART is taken as swapped (as the reference readers do).
 * - Only occurrences overlapping [from, to) are returned, sorted by start.
 *
 * Caps (an unbounded or hostile RRULE cannot blow up a sync):
 * - DAILY and WEEKLY rules without COUNT are fast-forwarded to just before `from` (whole multiples of
 *   the interval, so the rule's alignment is kept).
 * - {@link MAX_OCCURRENCES_PER_EVENT} (10,000) occurrences are generated per master at most (all its
 *   rules together, counted after the fast-forward); past it the call throws CalendarParseError.
 * - {@link MAX_OCCURRENCES_PER_CALL} (200,000) occurrences are generated in one call at most; past it
 *   the call throws CalendarParseError (the object is unreasonable, not silently half-read).
 *
 * Errors: text that is not iCalendar, a VEVENT without a usable DTSTART, an RRULE with an unknown part
 * (`UNTL=`), an unparseable date or VTIMEZONE, a cap reached: CalendarParseError, never anything else.
 * An invalid `hostZone` (a caller's bug, not the calendar's) is a RangeError.
 */
import { IANAZone } from 'luxon';
import { CalendarLimitError, CalendarParseError, fail, registerTimezones, rootsOf, type Skipped } from './ics-parse';
import { blocks, expandMaster, futureOf, type Future } from './occurrences';
import { dateKey, lengthOf, occurrenceKey, overlaps, span, timeOf, tzidOf, type Component, type Ctx } from './times';
import { ianaZoneFor } from './zones';

export { CalendarLimitError, CalendarParseError } from './ics-parse';
export type { Skipped } from './ics-parse';

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

export const MAX_OCCURRENCES_PER_EVENT = 10_000;
export const MAX_OCCURRENCES_PER_CALL = 200_000;

interface Group {
  masters: Component[];
  overrides: Component[];
}

function sequenceOf(c: Component): number {
  const n = Number(c.getFirstPropertyValue('sequence'));
  return Number.isFinite(n) ? n : 0;
}

/** The copy with the highest SEQUENCE, the later one on a tie. */
function latest(list: Component[]): Component | undefined {
  let best: Component | undefined;
  for (const c of list) if (!best || sequenceOf(c) >= sequenceOf(best)) best = c;
  return best;
}

/** The copies with the highest SEQUENCE (several on a tie: their busy times are united). */
function highest(list: Component[]): Component[] {
  const top = Math.max(...list.map(sequenceOf));
  return list.filter((c) => sequenceOf(c) === top);
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

function expandGroup(uid: string, g: Group, ctx: Ctx, out: BusyOccurrence[]): void {
  const masters = g.masters.length ? highest(g.masters) : [];
  const master = masters[0] as Component | undefined;
  const masterIsDate = master ? timeOf(master, 'dtstart')?.isDate === true : false;
  // One override per occurrence: the latest version.
  const byKey = new Map<string, Component[]>();
  for (const o of g.overrides) {
    const rid = timeOf(o, 'recurrence-id');
    if (!rid) continue;
    // An all-day series matches a date-time RECURRENCE-ID by its date (what Google writes for moved days).
    const key = masterIsDate && !rid.isDate ? `d:${dateKey(rid)}` : occurrenceKey(rid, tzidOf(o, 'recurrence-id'), ctx);
    byKey.set(key, [...(byKey.get(key) ?? []), o]);
  }
  const overrides = new Map<string, Component>();
  for (const [key, list] of byKey) overrides.set(key, latest(list)!);
  const excluded = new Set<string>();
  if (master) {
    const futures: Future[] = [];
    for (const o of overrides.values()) {
      const range = o.getFirstProperty('recurrence-id')?.getParameter('range');
      if (String(range ?? '').toUpperCase() === 'THISANDFUTURE' && blocks(o, ctx)) futures.push(futureOf(o, master, ctx));
    }
    futures.sort((a, b) => a.ridMs - b.ridMs);
    // Copies of one SEQUENCE are united: an interval that several give is counted once.
    const united = new Set<string>();
    for (const m of masters) {
      const mine: BusyOccurrence[] = [];
      const input = { uid, master: m, overrides, futures, ctx, out: mine, maxPerEvent: MAX_OCCURRENCES_PER_EVENT };
      for (const key of expandMaster(input)) excluded.add(key);
      const fresh = mine.filter((o) => !united.has(`${o.start},${o.end}`));
      for (const o of mine) united.add(`${o.start},${o.end}`);
      out.push(...fresh);
    }
  }
  for (const [key, o] of overrides) if (!excluded.has(key)) expandOverride(uid, o, master, ctx, out);
}

/**
 * A group that cannot be expanded (an unreadable DTSTART, RRULE, EXDATE, …) is skipped, but each of its
 * components whose own DTSTART..DTEND can still be read blocks that time (a busy-time reader errs
 * towards busy).
 */
function expandOrSalvage(uid: string, g: Group, ctx: Ctx, out: BusyOccurrence[], skipped: Skipped[]): boolean {
  const mine: BusyOccurrence[] = [];
  try {
    expandGroup(uid, g, ctx, mine);
    out.push(...mine);
    return true;
  } catch (e) {
    if (e instanceof CalendarLimitError || !(e instanceof Error)) throw e;
    skipped.push({ what: `VEVENT ${uid.slice(0, 80)}`, reason: e.message.slice(0, 160) });
    mine.length = 0;
    for (const c of [...g.masters, ...g.overrides]) {
      try {
        if (blocks(c, ctx)) expandOverride(uid, c, undefined, ctx, mine);
      } catch {
        // not even its own time can be read: it blocks nothing
      }
    }
  }
  out.push(...mine);
  return false;
}

/** The first VTIMEZONE's TZID that names a zone (IANA or Windows; zones.ts), or null. */
function firstZone(roots: Component[]): string | null {
  for (const root of roots) {
    for (const vtz of root.getAllSubcomponents('vtimezone')) {
      const tzid = vtz.getFirstPropertyValue('tzid');
      const zone = typeof tzid === 'string' ? ianaZoneFor(tzid) : null;
      if (zone) return zone;
    }
  }
  return null;
}

/** Busy occurrences and what was skipped to read them. */
export interface BusyReading {
  busy: BusyOccurrence[];
  skipped: Skipped[];
  /** Events (UIDs, with their overrides) read whole. */
  events: number;
}

/**
 * The busy occurrences of an iCalendar text inside [from, to), and the lines and components that could
 * not be read (skipped, not fatal). See the file comment for the rules. Throws CalendarParseError only
 * when no VCALENDAR can be read or a limit is reached (and RangeError on an invalid hostZone).
 */
export function readBusy(icsText: string, opts: ExpandOptions): BusyReading {
  if (!IANAZone.isValidZone(opts.hostZone)) throw new RangeError(`invalid hostZone: ${opts.hostZone}`);
  if (typeof icsText !== 'string') fail('not valid iCalendar: not text');
  const skipped: Skipped[] = [];
  let restore: (() => void) | null = null;
  try {
    const roots = rootsOf(icsText, skipped);
    const wr = roots[0].getFirstPropertyValue('x-wr-timezone');
    const floatingZone = (typeof wr === 'string' && ianaZoneFor(wr)) || opts.hostZone;
    const ctx: Ctx = {
      hostZone: opts.hostZone,
      floatingZone,
      calendarZone: (typeof wr === 'string' && ianaZoneFor(wr)) || firstZone(roots) || opts.hostZone,
      hostEmails: new Set(opts.hostEmails.map((e) => e.trim().toLowerCase()).filter(Boolean)),
      from: opts.from,
      to: opts.to,
      budget: { left: MAX_OCCURRENCES_PER_CALL },
    };
    restore = registerTimezones(roots, skipped);
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
    if (!(ctx.to > ctx.from)) return { busy: out, skipped, events: 0 };
    let events = 0;
    for (const [uid, g] of groups) if (expandOrSalvage(uid, g, ctx, out, skipped)) events++;
    out.sort((a, b) => a.start - b.start || a.end - b.end || (a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0));
    return { busy: out, skipped, events };
  } catch (e) {
    if (e instanceof CalendarParseError) throw e;
    throw new CalendarParseError(`malformed iCalendar: ${e instanceof Error ? e.message : String(e)}`);
  } finally {
    restore?.();
  }
}

/** The busy occurrences alone (readBusy without the report of what was skipped). */
export function expandBusy(icsText: string, opts: ExpandOptions): BusyOccurrence[] {
  return readBusy(icsText, opts).busy;
}
