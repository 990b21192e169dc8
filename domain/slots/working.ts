/**
 * Working intervals of one host, in wall-clock semantics: an instant is working time iff its
 * local wall-clock time (in the schedule timezone) falls inside one of the windows of its
 * local calendar date. Windows of a date come from the date's overrides if it has any,
 * otherwise from the enabled weekly rules of its weekday.
 */
import type { HostSchedule } from './types';
import { DAY, MINUTE, type OffsetPiece } from './tz';

export interface Interval {
  start: number;
  end: number;
}

/** [startMsOfDay, endMsOfDay) pairs, sorted and merged. */
type DayWindows = Array<[number, number]>;

const TIME_RE = /^(\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/;

/** "HH:MM" / "HH:MM:SS" -> ms since local midnight (24:00 -> DAY); NaN when unparseable. */
export function parseTimeOfDay(s: string | null | undefined): number {
  if (typeof s !== 'string') return NaN;
  const m = TIME_RE.exec(s.trim());
  if (!m) return NaN;
  const ms = (Number(m[1]) * 60 + Number(m[2])) * MINUTE + (m[3] ? Number(m[3]) * 1000 : 0);
  return ms <= DAY ? ms : NaN;
}

function mergeWindows(ws: DayWindows): DayWindows {
  const valid = ws.filter(([s, e]) => Number.isFinite(s) && Number.isFinite(e) && s < e).sort((a, b) => a[0] - b[0]);
  const out: DayWindows = [];
  for (const [s, e] of valid) {
    const last = out[out.length - 1];
    if (last && s <= last[1]) last[1] = Math.max(last[1], e);
    else out.push([s, e]);
  }
  return out;
}

/** Day index (days since 1970-01-01 of the local naive timeline) -> weekday, 0 = Sunday. */
export function weekdayOfDay(d: number): number {
  return (((d + 4) % 7) + 7) % 7; // 1970-01-01 was a Thursday
}

export function isoDateOfDay(d: number): string {
  return new Date(d * DAY).toISOString().slice(0, 10);
}

const BLOCKED: DayWindows = [];

export class HostCalendar {
  private readonly weekly: DayWindows[] = [[], [], [], [], [], [], []];
  /** date -> windows; an unavailable override wins over any hours given for the same date. */
  private readonly overrides = new Map<string, DayWindows>();

  constructor(host: HostSchedule) {
    const raw: DayWindows[] = [[], [], [], [], [], [], []];
    for (const r of host.rules) {
      if (!r.enabled || !(r.day >= 0 && r.day <= 6)) continue;
      raw[r.day | 0].push([parseTimeOfDay(r.start), parseTimeOfDay(r.end)]);
    }
    for (let i = 0; i < 7; i++) this.weekly[i] = mergeWindows(raw[i]);

    const byDate = new Map<string, { blocked: boolean; ws: DayWindows }>();
    for (const o of host.overrides) {
      let e = byDate.get(o.date);
      if (!e) byDate.set(o.date, (e = { blocked: false, ws: [] }));
      if (o.is_unavailable) e.blocked = true;
      else e.ws.push([parseTimeOfDay(o.start), parseTimeOfDay(o.end)]);
    }
    for (const [date, e] of byDate) this.overrides.set(date, e.blocked ? BLOCKED : mergeWindows(e.ws));
  }

  windowsFor(day: number): DayWindows {
    if (this.overrides.size > 0) {
      const o = this.overrides.get(isoDateOfDay(day));
      if (o) return o;
    }
    return this.weekly[weekdayOfDay(day)];
  }

  /**
   * Working intervals (epoch ms) intersected with [from, to), ascending, with touching or
   * overlapping intervals merged (so e.g. 09-12 + 12-17, or Mon 00-24 + Tue 00-24, form one
   * interval). `pieces` must cover [from, to).
   */
  workingIntervals(pieces: OffsetPiece[], from: number, to: number): Interval[] {
    const out: Interval[] = [];
    for (const p of pieces) {
      const a = Math.max(p.start, from);
      const b = Math.min(p.end, to);
      if (a >= b) continue;
      const la = a + p.offset;
      const lb = b + p.offset;
      for (let d = Math.floor(la / DAY); d * DAY < lb; d++) {
        const base = d * DAY;
        for (const [ws, we] of this.windowsFor(d)) {
          const s = Math.max(base + ws, la);
          const e = Math.min(base + we, lb);
          if (s >= e) continue;
          const is = s - p.offset;
          const ie = e - p.offset;
          const last = out[out.length - 1];
          // Output is produced in ascending order (pieces, days and windows are ascending).
          if (last && is <= last.end) last.end = Math.max(last.end, ie);
          else out.push({ start: is, end: ie });
        }
      }
    }
    return out;
  }
}
