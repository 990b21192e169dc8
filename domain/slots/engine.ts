import type { HostSchedule, Slot, SlotCheck, SlotQuery } from './types';
import { DAY, MINUTE, resolveFirst, zoneOffsets } from './tz';
import { LimitCounter, localDayWith } from './limits';
import { HostCalendar } from './working';

/** Per-candidate host status. */
const OUTSIDE = 0;
const BUSY = 1;
const FREE = 2;
/** Free, but another booking would exceed the host's day or week limit. */
const LIMITED = 3;

interface StartBounds {
  /** inclusive lower bound: max(rangeStart, now + minNotice) */
  lo: number;
  /** inclusive upper bound: horizon now + maxBookingDays * 24h */
  horizon: number;
  /** exclusive upper bound: rangeEnd */
  rangeEnd: number;
}

function startBounds(q: SlotQuery): StartBounds {
  return {
    lo: Math.max(q.rangeStart, q.now + q.minNoticeMinutes * MINUTE),
    horizon: q.now + q.maxBookingDays * DAY,
    rangeEnd: q.rangeEnd,
  };
}

function activeHosts(hosts: HostSchedule[], q: SlotQuery): HostSchedule[] {
  const active = q.mode === 'one_on_one' ? hosts.slice(0, 1) : hosts;
  for (const h of active) zoneOffsets(h.timezone); // validate every timezone up front
  return active;
}

/**
 * Aligned candidate starts in [lo, min(horizon, rangeEnd)): instants whose local wall-clock time in
 * `timezone` is a whole multiple of `inc` after local midnight. Each local time yields at most
 * one instant (nonexistent -> skipped, ambiguous -> first occurrence). Ascending.
 */
function alignedStarts(timezone: string, b: StartBounds, inc: number): number[] {
  const out: number[] = [];
  const hi = Math.min(b.horizon, b.rangeEnd);
  if (!(inc > 0) || !(b.lo <= hi) || !Number.isFinite(b.lo) || !Number.isFinite(hi)) return out;
  const pieces = zoneOffsets(timezone).pieces(b.lo - 2 * DAY, hi + 2 * DAY);
  const dLast = Math.floor(hi / DAY) + 1; // |offset| < 1 day
  for (let d = Math.floor(b.lo / DAY) - 1; d <= dLast; d++) {
    const base = d * DAY;
    for (let m = 0; m < DAY; m += inc) {
      const t = resolveFirst(pieces, base + m);
      if (t !== undefined && t >= b.lo && t <= b.horizon && t < b.rangeEnd) out.push(t);
    }
  }
  // The first-occurrence mapping is increasing for real tzdata; guard anyway.
  for (let i = 1; i < out.length; i++) {
    if (out[i] <= out[i - 1]) return [...new Set(out)].sort((x, y) => x - y);
  }
  return out;
}

interface OpenInterval {
  p: number;
  q: number;
}

/**
 * Starts s forbidden by busy intervals: conflict iff
 *   s - before < busy.end + after  AND  busy.start - before < s + dur + after
 * i.e. s in the open interval (busy.start - W - dur, busy.end + W) with W = before + after.
 * Only intervals that can affect starts in [first, last] are kept. Sorted and merged.
 */
function forbiddenStarts(host: HostSchedule, dur: number, w: number, first: number, last: number): OpenInterval[] {
  const raw: OpenInterval[] = [];
  let sorted = true; // a host's connected-calendar list comes sorted: no sort then
  for (const b of host.busy) {
    if (!(b.end >= b.start)) continue;
    const p = b.start - w - dur;
    const q = b.end + w;
    if (!(q > first && p < last)) continue;
    if (raw.length && p < raw[raw.length - 1].p) sorted = false;
    raw.push({ p, q });
  }
  if (!sorted) raw.sort((x, y) => x.p - y.p);
  const out: OpenInterval[] = [];
  for (const r of raw) {
    const top = out[out.length - 1];
    if (top && r.p < top.q) top.q = Math.max(top.q, r.q);
    else out.push({ p: r.p, q: r.q });
  }
  return out;
}

/** Status (OUTSIDE / BUSY / FREE) of one host for each ascending candidate start. */
function hostStatuses(host: HostSchedule, cands: number[], dur: number, w: number, q: SlotQuery): Uint8Array {
  const status = new Uint8Array(cands.length);
  if (cands.length === 0) return status;
  const first = cands[0];
  const last = cands[cands.length - 1];
  // One ms of margin on each side keeps clipping from changing any containment decision.
  const from = first - 1;
  const to = last + dur + 1;
  const pieces = zoneOffsets(host.timezone).pieces(from - DAY, to + DAY);
  const work = new HostCalendar(host).workingIntervals(pieces, from, to);
  const blocks = forbiddenStarts(host, dur, w, first, last);
  const limits = LimitCounter.active(q.limits) ? new LimitCounter(host, q.limits) : null;
  let wi = 0;
  let bi = 0;
  for (let k = 0; k < cands.length; k++) {
    const s = cands[k];
    while (wi < work.length && work[wi].end - dur < s) wi++;
    if (wi === work.length) break;
    if (work[wi].start > s) continue; // OUTSIDE
    while (bi < blocks.length && blocks[bi].q <= s) bi++;
    status[k] = bi < blocks.length && blocks[bi].p < s ? BUSY : FREE;
    if (status[k] === FREE && limits && !limits.allows(s, localDayWith(pieces, s))) status[k] = LIMITED;
  }
  return status;
}

function bufferWidth(q: SlotQuery): number {
  return (q.bufferBeforeMinutes + q.bufferAfterMinutes) * MINUTE;
}

export function computeSlots(hosts: HostSchedule[], q: SlotQuery): Slot[] {
  if (hosts.length === 0) return [];
  const active = activeHosts(hosts, q);
  const dur = q.durationMinutes * MINUTE;
  const cands = alignedStarts(active[0].timezone, startBounds(q), q.incrementMinutes * MINUTE);
  if (cands.length === 0) return [];
  const w = bufferWidth(q);
  const statuses = active.map((h) => hostStatuses(h, cands, dur, w, q));
  const n = active.length;
  const slots: Slot[] = [];
  for (let k = 0; k < cands.length; k++) {
    let free = 0;
    for (let i = 0; i < n; i++) if (statuses[i][k] === FREE) free++;
    if (free === 0 || (q.mode === 'group' && free < n)) continue;
    const hostIds: string[] = [];
    for (let i = 0; i < n; i++) if (statuses[i][k] === FREE) hostIds.push(active[i].hostId);
    slots.push({ start: cands[k], end: cands[k] + dur, hostIds });
  }
  return slots;
}

/**
 * Whether `start` is one of the slots computeSlots(hosts, q) would return (same code paths).
 * Reasons are checked in this order: within_notice, past_horizon, outside the query range
 * (reported as outside_availability), off_increment, then per host outside_availability / busy.
 */
export function isSlotOffered(hosts: HostSchedule[], q: SlotQuery, start: number): SlotCheck {
  if (hosts.length === 0) return { offered: false, reason: 'outside_availability', hostIds: [] };
  const active = activeHosts(hosts, q);
  const b = startBounds(q);
  if (start < q.now + q.minNoticeMinutes * MINUTE) return { offered: false, reason: 'within_notice', hostIds: [] };
  if (start > b.horizon) return { offered: false, reason: 'past_horizon', hostIds: [] };
  if (start < q.rangeStart || start >= q.rangeEnd) return { offered: false, reason: 'outside_availability', hostIds: [] };
  const grid = alignedStarts(active[0].timezone, { lo: start, horizon: start, rangeEnd: start + 1 }, q.incrementMinutes * MINUTE);
  if (grid.length !== 1 || grid[0] !== start) return { offered: false, reason: 'off_increment', hostIds: [] };

  const dur = q.durationMinutes * MINUTE;
  const w = bufferWidth(q);
  const st = active.map((h) => hostStatuses(h, [start], dur, w, q)[0]);
  const hostIds = active.filter((_, i) => st[i] === FREE).map((h) => h.hostId);
  const anyOutside = st.some((s) => s === OUTSIDE);
  const anyBusy = st.some((s) => s === BUSY);
  const anyLimited = st.some((s) => s === LIMITED);
  const offered = q.mode === 'group' ? hostIds.length === active.length : hostIds.length > 0;
  if (offered) return { offered: true, hostIds };
  let reason: SlotCheck['reason'];
  if (q.mode === 'group') reason = anyOutside ? 'outside_availability' : anyBusy ? 'busy' : 'booking_limit';
  else reason = anyBusy ? 'busy' : anyLimited ? 'booking_limit' : 'outside_availability';
  return { offered: false, reason, hostIds: [] };
}
