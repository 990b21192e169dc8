import { DateTime } from 'luxon';
import { DEFAULT_RULES } from '../../services/accounts/users';

/**
 * The one place where tests derive a day from the clock. A test that needs "a day the host is open"
 * asks for one here instead of adding whole days to `Date.now()`: adding days lands on a weekend
 * two days out of seven, on a missing hour on a DST day, and on another date than the host's at
 * 23:30 UTC. test/foundation/test-hygiene.test.ts fails on `Date.now()` plus whole days anywhere else.
 *
 * Days are counted in the schedule's zone, never the machine's.
 */

/** A weekly availability rule as the API and `availability_schedules.rules` hold it (`day` 0 = Sunday). */
export interface WeeklyRule {
  day: number;
  start: string;
  end: string;
  enabled?: boolean;
}

/** Every day, around the clock: the schedule of `alwaysAvailable()`. */
export const ALL_WEEK = [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, start: '00:00', end: '24:00', enabled: true }));

/** The schedule a new user gets (services/accounts.ts): Monday to Friday, 09:00-17:00. */
export const WEEKDAYS_9_TO_5: WeeklyRule[] = DEFAULT_RULES;

export interface OpenDayOptions {
  /** The clock (ms or Date); default the real one. Tests of this helper inject it. */
  now?: number | Date;
  /** The schedule's IANA zone; default UTC. */
  zone?: string;
  /** At least this many calendar days after today's date in `zone` (default 1: never today). With 0, today counts if its window has not opened yet. */
  after?: number;
}

export interface OpenDay {
  /** The local date, YYYY-MM-DD, in the schedule's zone. */
  date: string;
  /** Opening and closing of the day's window, in the zone. */
  start: DateTime;
  end: DateTime;
  startMs: number;
  endMs: number;
  /** 0 = Sunday … 6 = Saturday, like the rules. */
  day: number;
}

const nowMs = (now: number | Date | undefined) => (now === undefined ? Date.now() : typeof now === 'number' ? now : now.getTime());

/** The day's window under `rule` on `date` (a local midnight in the zone), or null when empty (e.g. inside a DST gap). */
function windowOn(date: DateTime, rule: WeeklyRule): { start: DateTime; end: DateTime } | null {
  const at = (hhmm: string) => {
    if (hhmm === '24:00') return date.plus({ days: 1 }).startOf('day');
    const [hour, minute] = hhmm.split(':').map(Number);
    // A wall-clock time inside a spring-forward gap does not exist: luxon moves it forward.
    return date.set({ hour, minute, second: 0, millisecond: 0 });
  };
  const start = at(rule.start);
  const end = at(rule.end);
  return start.isValid && end.isValid && start < end ? { start, end } : null;
}

/**
 * The first day, at least `after` days after today's date in `zone`, on which `rules` offer a
 * non-empty window that opens after `now`; with the moments that window opens and closes. Throws when the rules offer no day.
 */
export function nextOpenDay(rules: WeeklyRule[], opts: OpenDayOptions = {}): OpenDay {
  const zone = opts.zone ?? 'UTC';
  const now = nowMs(opts.now);
  const today = DateTime.fromMillis(now, { zone }).startOf('day');
  if (!today.isValid) throw new Error(`nextOpenDay: unknown zone ${zone}`);
  const first = today.plus({ days: opts.after ?? 1 });
  for (let i = 0; i < 15; i++) {
    const date = first.plus({ days: i }).startOf('day');
    const day = date.weekday % 7;
    for (const rule of rules.filter((r) => r.day === day && r.enabled !== false).sort((a, b) => a.start.localeCompare(b.start))) {
      const w = windowOn(date, rule);
      if (w && w.start.toMillis() > now)
        return { date: date.toISODate()!, ...w, startMs: w.start.toMillis(), endMs: w.end.toMillis(), day };
    }
  }
  throw new Error('nextOpenDay: the rules offer no day at all');
}

/** `count` successive open days, the first as `nextOpenDay` answers, each after the one before. */
export function openDays(rules: WeeklyRule[], count: number, opts: OpenDayOptions = {}): OpenDay[] {
  const out: OpenDay[] = [];
  let from = nextOpenDay(rules, opts);
  for (;;) {
    out.push(from);
    if (out.length >= count) return out;
    from = nextOpenDay(rules, { zone: opts.zone, now: from.start.startOf('day').toMillis(), after: 1 });
  }
}

/** The date `days` calendar days after today's in `zone` (every day open): `nextOpenDay(ALL_WEEK, …).date`. */
export function dateAhead(days: number, opts: Omit<OpenDayOptions, 'after'> = {}): string {
  return nextOpenDay(ALL_WEEK, { ...opts, after: days }).date;
}

/**
 * An instant `days` × 24 h after now, for when any day will do (an expiry, a busy event to sync, a
 * meeting row written straight to the table): never for a moment a schedule must offer.
 */
export function instantDaysAhead(days: number, now?: number | Date): number {
  return nowMs(now) + days * 86_400_000;
}

/** The first local date, at least `after` days after today's in `zone`, on which the zone's UTC offset changes (a DST day). */
export function nextDstChange(zone: string, opts: { now?: number | Date; after?: number } = {}): DateTime {
  let d = DateTime.fromMillis(nowMs(opts.now), { zone })
    .startOf('day')
    .plus({ days: opts.after ?? 1 });
  for (let i = 0; i < 400; i++, d = d.plus({ days: 1 }).startOf('day')) if (d.offset !== d.plus({ days: 1 }).offset) return d;
  throw new Error(`${zone} has no DST change`);
}
