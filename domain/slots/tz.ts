/**
 * Timezone offset handling for the slot engine, built on luxon's IANAZone.
 *
 * A zone's offset function is turned into "pieces": maximal instant ranges with a constant
 * UTC offset. Everything else in the engine is plain integer arithmetic on epoch ms and on
 * "local naive ms" (the local wall clock written as if it were UTC: local = instant + offset).
 *
 * Offsets are memoised per zone and UTC day (luxon's offset() costs several microseconds
 * because it goes through Intl). Assumption: at most one offset transition per UTC day,
 * which holds for all tzdata transitions in the modern era.
 */
import { IANAZone } from 'luxon';

export const MINUTE = 60_000;
export const DAY = 86_400_000;

export interface OffsetPiece {
  /** inclusive instant */
  start: number;
  /** exclusive instant */
  end: number;
  /** UTC offset in ms during [start, end) */
  offset: number;
}

const MAX_CACHED_DAYS = 200_000;

export class ZoneOffsets {
  private readonly dayStart = new Map<number, number>();
  private readonly transition = new Map<number, number>();

  constructor(private readonly zone: IANAZone) {}

  /** Offset in ms at an instant (uncached luxon call). */
  private raw(t: number): number {
    return Math.round(this.zone.offset(t) * MINUTE);
  }

  private atDayStart(d: number): number {
    let o = this.dayStart.get(d);
    if (o === undefined) {
      if (this.dayStart.size >= MAX_CACHED_DAYS) {
        this.dayStart.clear();
        this.transition.clear();
      }
      o = this.raw(d * DAY);
      this.dayStart.set(d, o);
    }
    return o;
  }

  /** First instant in UTC day d whose offset differs from `before` (binary search, ms precision). */
  private transitionIn(d: number, before: number): number {
    let t = this.transition.get(d);
    if (t === undefined) {
      let lo = d * DAY; // offset(lo) === before
      let hi = (d + 1) * DAY; // offset(hi) !== before
      while (hi - lo > 1) {
        const mid = lo + Math.floor((hi - lo) / 2);
        if (this.raw(mid) === before) lo = mid;
        else hi = mid;
      }
      t = hi;
      this.transition.set(d, t);
    }
    return t;
  }

  /** Constant-offset pieces covering at least [from, to], ascending and contiguous. */
  pieces(from: number, to: number): OffsetPiece[] {
    const d0 = Math.floor(from / DAY);
    const d1 = Math.floor(to / DAY);
    const out: OffsetPiece[] = [];
    let curStart = d0 * DAY;
    let cur = this.atDayStart(d0);
    for (let d = d0; d <= d1; d++) {
      const next = this.atDayStart(d + 1);
      if (next !== cur) {
        const t = this.transitionIn(d, cur);
        out.push({ start: curStart, end: t, offset: cur });
        curStart = t;
        cur = next;
      }
    }
    out.push({ start: curStart, end: (d1 + 1) * DAY, offset: cur });
    return out;
  }
}

const zones = new Map<string, ZoneOffsets>();

/** Offsets for an IANA zone; throws Error('invalid timezone: X') for unknown zones. */
export function zoneOffsets(name: string): ZoneOffsets {
  let z = zones.get(name);
  if (z === undefined) {
    if (typeof name !== 'string' || !IANAZone.isValidZone(name)) throw new Error(`invalid timezone: ${name}`);
    z = new ZoneOffsets(IANAZone.create(name));
    zones.set(name, z);
  }
  return z;
}

/** Local naive ms of an instant (instant must be covered by the pieces). */
export function toLocal(pieces: OffsetPiece[], t: number): number {
  for (const p of pieces) if (t >= p.start && t < p.end) return t + p.offset;
  throw new Error('instant outside computed offset pieces');
}

/**
 * Instant of a local wall-clock time. Nonexistent (spring-forward gap) -> undefined;
 * ambiguous (fall-back overlap) -> the EARLIER instant (first occurrence).
 */
export function resolveFirst(pieces: OffsetPiece[], local: number): number | undefined {
  // Pieces are ascending and disjoint, so the first valid piece yields the earliest instant.
  for (const p of pieces) {
    const t = local - p.offset;
    if (t >= p.start && t < p.end) return t;
  }
  return undefined;
}
