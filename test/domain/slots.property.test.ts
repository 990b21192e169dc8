/**
 * Property tests for the slot engine. The checks below use luxon's DateTime directly and a
 * brute-force oracle; they do not reuse any engine internals.
 *
 * Soundness of the working-hours check: rule/override times are generated on the quarter hour
 * and every zone in ZONES has offsets and transitions on UTC quarter hours, so "is this instant
 * working time" is constant on every UTC 15-minute cell. Checking the slot start plus every
 * UTC quarter hour strictly inside the slot therefore checks every instant of the slot.
 * Likewise every aligned start is on the UTC 5-minute grid, so the oracle only enumerates that grid.
 */
import fc from 'fast-check';
import { DateTime } from 'luxon';
import {
  computeSlots,
  isSlotOffered,
  type AvailabilityRule,
  type DateOverride,
  type HostSchedule,
  type Slot,
  type SlotQuery,
} from '../../domain/slots';

const MIN = 60_000;
const Q = 15 * MIN;
const DAY = 86_400_000;

/** zone -> its 2026 DST days (empty when it has none). */
const ZONES: Record<string, string[]> = {
  UTC: [],
  'America/New_York': ['2026-03-08', '2026-11-01'],
  'Europe/London': ['2026-03-29', '2026-10-25'],
  'Australia/Lord_Howe': ['2026-04-05', '2026-10-04'],
  'Asia/Kolkata': [],
  'Asia/Kathmandu': [],
  'America/St_Johns': ['2026-03-08', '2026-11-01'],
  'Pacific/Chatham': ['2026-04-05', '2026-09-27'],
  'Australia/Sydney': ['2026-04-05', '2026-10-04'],
  'America/Sao_Paulo': [],
  'Asia/Tokyo': [],
};
const ZONE_NAMES = Object.keys(ZONES);

// ---------- independent reference helpers (luxon only) ----------

interface LocalInfo {
  date: string;
  weekday: number; // 0 = Sunday
  minuteOfDay: number; // fractional
  naive: number; // wall clock as if UTC
}
const infoCache = new Map<string, LocalInfo>();
function info(ms: number, zone: string): LocalInfo {
  const key = `${zone}|${ms}`;
  let v = infoCache.get(key);
  if (!v) {
    const dt = DateTime.fromMillis(ms, { zone });
    v = {
      date: dt.toISODate()!,
      weekday: dt.weekday % 7,
      minuteOfDay: dt.hour * 60 + dt.minute + dt.second / 60 + dt.millisecond / 60_000,
      naive: ms + dt.offset * MIN,
    };
    if (infoCache.size > 500_000) infoCache.clear();
    infoCache.set(key, v);
  }
  return v;
}

const hm = (s: string): number => Number(s.slice(0, 2)) * 60 + Number(s.slice(3, 5));

function windowsOf(h: HostSchedule, li: LocalInfo): Array<[number, number]> {
  const ovs = h.overrides.filter((o) => o.date === li.date);
  if (ovs.length > 0) {
    if (ovs.some((o) => o.is_unavailable)) return [];
    return ovs.map((o) => [hm(o.start!), hm(o.end!)]);
  }
  return h.rules.filter((r) => r.enabled && r.day === li.weekday).map((r) => [hm(r.start), hm(r.end)]);
}

function isWorking(h: HostSchedule, t: number): boolean {
  const li = info(t, h.timezone);
  return windowsOf(h, li).some(([s, e]) => s <= li.minuteOfDay && li.minuteOfDay < e);
}

function insideWorking(h: HostSchedule, start: number, end: number): boolean {
  if (!isWorking(h, start)) return false;
  for (let g = Math.floor(start / Q) * Q + Q; g < end; g += Q) if (!isWorking(h, g)) return false;
  return true;
}

function conflicts(h: HostSchedule, q: SlotQuery, start: number, end: number): boolean {
  const B = q.bufferBeforeMinutes * MIN;
  const A = q.bufferAfterMinutes * MIN;
  return h.busy.some((b) => start - B < b.end + A && b.start - B < end + A);
}

/** Aligned on the zone's wall clock, and the first instant showing that wall-clock time. */
function isAligned(t: number, zone: string, inc: number): boolean {
  const li = info(t, zone);
  if (li.minuteOfDay % inc !== 0) return false;
  // a fall-back repeats wall-clock time shifted by the DST amount (30 or 60 min in ZONES)
  return [30, 60].every((d) => info(t - d * MIN, zone).naive !== li.naive);
}

function oracle(hosts: HostSchedule[], q: SlotQuery): Slot[] {
  if (hosts.length === 0) return [];
  const active = q.mode === 'one_on_one' ? hosts.slice(0, 1) : hosts;
  const dur = q.durationMinutes * MIN;
  const out: Slot[] = [];
  const G = 5 * MIN;
  for (let t = Math.ceil(q.rangeStart / G) * G; t < q.rangeEnd; t += G) {
    if (t < q.now + q.minNoticeMinutes * MIN || t > q.now + q.maxBookingDays * DAY) continue;
    if (!isAligned(t, active[0].timezone, q.incrementMinutes)) continue;
    const free = active.filter((h) => insideWorking(h, t, t + dur) && !conflicts(h, q, t, t + dur));
    if (free.length === 0 || (q.mode === 'group' && free.length < active.length)) continue;
    out.push({ start: t, end: t + dur, hostIds: free.map((h) => h.hostId) });
  }
  return out;
}

// ---------- generators ----------

const qhToTime = (qh: number): string => `${String(Math.floor(qh / 4)).padStart(2, '0')}:${String((qh % 4) * 15).padStart(2, '0')}`;

const ruleArb: fc.Arbitrary<AvailabilityRule> = fc
  .record({
    day: fc.integer({ min: 0, max: 6 }),
    a: fc.integer({ min: 0, max: 96 }),
    b: fc.integer({ min: 0, max: 96 }),
    enabled: fc.boolean(),
  })
  .map(({ day, a, b, enabled }) => ({
    day,
    start: qhToTime(Math.min(a, b)),
    end: qhToTime(Math.max(a, b)),
    enabled: enabled || a % 3 !== 0,
  }));

/** A few "full day" / "early morning" rules make DST transitions and midnight crossings likely to matter. */
const rulesArb: fc.Arbitrary<AvailabilityRule[]> = fc.oneof(
  { arbitrary: fc.array(ruleArb, { maxLength: 10 }), weight: 2 },
  {
    arbitrary: fc
      .constantFrom('00:00-24:00', '00:00-05:00', '01:00-03:00', '09:00-17:00', '22:00-24:00')
      .map((span) => [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, start: span.slice(0, 5), end: span.slice(6), enabled: true }))),
    weight: 1,
  },
  { arbitrary: fc.array(ruleArb, { minLength: 7, maxLength: 14 }), weight: 1 },
);

interface Scenario {
  hosts: HostSchedule[];
  q: SlotQuery;
}

function scenarioArb(maxRangeHours: number): fc.Arbitrary<Scenario> {
  const zoneDate = fc.constantFrom(...ZONE_NAMES).chain((zone) =>
    fc.record({
      zone: fc.constant(zone),
      date: fc.oneof(
        ZONES[zone].length ? fc.constantFrom(...ZONES[zone]) : fc.constantFrom('2026-06-15'),
        fc.integer({ min: 0, max: 3 * 365 }).map((d) => new Date(Date.UTC(2025, 0, 1) + d * DAY).toISOString().slice(0, 10)),
      ),
    }),
  );
  return zoneDate.chain(({ zone, date }) => {
    const anchor = DateTime.fromISO(date, { zone }).startOf('day').toMillis();
    const isoAround = (k: number) => DateTime.fromISO(date, { zone }).plus({ days: k }).toISODate()!;
    const overrideArb: fc.Arbitrary<DateOverride> = fc
      .record({
        k: fc.integer({ min: -1, max: 2 }),
        un: fc.boolean(),
        a: fc.integer({ min: 0, max: 96 }),
        b: fc.integer({ min: 0, max: 96 }),
      })
      .map(({ k, un, a, b }) =>
        un
          ? { date: isoAround(k), is_unavailable: true }
          : { date: isoAround(k), is_unavailable: false, start: qhToTime(Math.min(a, b)), end: qhToTime(Math.max(a, b)) },
      );
    const busyArb = fc
      .record({
        off: fc.integer({ min: -24 * 60, max: 72 * 60 }),
        len: fc.integer({ min: 0, max: 240 }),
        jitter: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 59_999 })),
      })
      .map(({ off, len, jitter }) => ({ start: anchor + off * MIN + jitter, end: anchor + (off + len) * MIN + jitter }));
    const hostArb = (i: number, tz: fc.Arbitrary<string>) =>
      fc.record({
        hostId: fc.constant(`h${i}`),
        timezone: tz,
        rules: rulesArb,
        overrides: fc.array(overrideArb, { maxLength: 3 }),
        busy: fc.oneof(fc.array(busyArb, { maxLength: 6 }), fc.array(busyArb, { maxLength: 25 })),
      });
    const otherZone = fc.oneof(fc.constant(zone), fc.constantFrom(...ZONE_NAMES));
    return fc.record({
      hosts: fc
        .integer({ min: 1, max: 3 })
        .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => hostArb(i, i === 0 ? fc.constant(zone) : otherZone)))),
      q: fc
        .record({
          startOff: fc.integer({ min: -12 * 60, max: 12 * 60 }),
          lenMin: fc.integer({ min: 60, max: maxRangeHours * 60 }),
          nowOff: fc.integer({ min: -36 * 60, max: 6 * 60 }), // relative to rangeStart
          nowJitter: fc.constantFrom(0, 1234),
          durationMinutes: fc.constantFrom(15, 20, 30, 45, 60, 90, 120),
          incrementMinutes: fc.constantFrom(5, 10, 15, 30, 60),
          bufferBeforeMinutes: fc.constantFrom(0, 0, 5, 10, 15, 30),
          bufferAfterMinutes: fc.constantFrom(0, 0, 5, 10, 15, 30),
          minNoticeMinutes: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 600 }), fc.integer({ min: 0, max: 36 * 60 })),
          maxBookingDays: fc.oneof(fc.integer({ min: 0, max: 3 }), fc.constant(60), fc.constant(60)),
          mode: fc.constantFrom('one_on_one' as const, 'round_robin' as const, 'group' as const),
        })
        .map(({ startOff, lenMin, nowOff, nowJitter, ...rest }) => {
          const rangeStart = anchor + startOff * MIN;
          return { ...rest, rangeStart, rangeEnd: rangeStart + lenMin * MIN, now: rangeStart + nowOff * MIN + nowJitter };
        }),
    });
  });
}

const describeSlot = (s: Slot, zone: string) => `${DateTime.fromMillis(s.start, { zone }).toISO()} [${s.hostIds}]`;

describe('slot engine properties', () => {
  it('every slot satisfies the invariants (working hours, buffers, notice, horizon, increment, range, hosts)', () => {
    fc.assert(
      fc.property(scenarioArb(72), ({ hosts, q }) => {
        const slots = computeSlots(hosts, q);
        const active = q.mode === 'one_on_one' ? hosts.slice(0, 1) : hosts;
        const zone = hosts[0].timezone;
        const ids = active.map((h) => h.hostId);
        for (let i = 0; i < slots.length; i++) {
          const s = slots[i];
          const msg = describeSlot(s, zone);
          if (i > 0 && !(s.start > slots[i - 1].start)) throw new Error(`not strictly ascending at ${msg}`);
          expect(s.end - s.start).toBe(q.durationMinutes * MIN);
          if (!(s.start >= q.rangeStart && s.start < q.rangeEnd)) throw new Error(`outside range: ${msg}`);
          if (s.start < q.now + q.minNoticeMinutes * MIN) throw new Error(`within notice: ${msg}`);
          if (s.start > q.now + q.maxBookingDays * DAY) throw new Error(`past horizon: ${msg}`);
          if (!isAligned(s.start, zone, q.incrementMinutes)) throw new Error(`off increment: ${msg}`);
          if (s.hostIds.length === 0) throw new Error(`no hosts: ${msg}`);
          if (q.mode === 'group' && s.hostIds.length !== active.length) throw new Error(`group slot without every host: ${msg}`);
          expect(s.hostIds).toEqual(ids.filter((id) => s.hostIds.includes(id))); // subset, host order
          for (const id of s.hostIds) {
            const h = active.find((x) => x.hostId === id)!;
            if (!insideWorking(h, s.start, s.end)) throw new Error(`outside working hours of ${id}: ${msg}`);
            if (conflicts(h, q, s.start, s.end)) throw new Error(`overlaps busy+buffers of ${id}: ${msg}`);
          }
        }
        // busy order must not matter
        const shuffled = hosts.map((h) => ({ ...h, busy: [...h.busy].reverse() }));
        expect(computeSlots(shuffled, q)).toEqual(slots);
      }),
      { numRuns: 120 },
    );
  });

  it('matches a brute-force oracle exactly (nothing missing, nothing extra)', () => {
    fc.assert(
      fc.property(scenarioArb(30), ({ hosts, q }) => {
        const got = computeSlots(hosts, q);
        const want = oracle(hosts, q);
        expect(got.map((s) => describeSlot(s, hosts[0].timezone))).toEqual(want.map((s) => describeSlot(s, hosts[0].timezone)));
        expect(got).toEqual(want);
      }),
      { numRuns: 150 },
    );
  });

  it('isSlotOffered agrees with computeSlots membership', () => {
    fc.assert(
      fc.property(scenarioArb(24), fc.integer({ min: 0, max: 4 }), ({ hosts, q }, pick) => {
        const slots = computeSlots(hosts, q);
        const byStart = new Map(slots.map((s) => [s.start, s]));
        const G = 5 * MIN;
        for (let t = Math.ceil(q.rangeStart / G) * G - G; t <= q.rangeEnd + G; t += G) {
          const r = isSlotOffered(hosts, q, t);
          const s = byStart.get(t);
          if (r.offered !== (s !== undefined)) throw new Error(`disagree at ${new Date(t).toISOString()}: ${JSON.stringify(r)}`);
          if (s) expect(r).toEqual({ offered: true, hostIds: s.hostIds });
          else expect(r.reason).toBeDefined();
        }
        // instants off the minute grid are never offered
        for (const s of slots.slice(pick, pick + 3)) {
          expect(isSlotOffered(hosts, q, s.start + 1).offered).toBe(false);
          expect(isSlotOffered(hosts, q, s.start + MIN).offered).toBe(false);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('group slots are a subset of round-robin slots and one_on_one only depends on hosts[0]', () => {
    fc.assert(
      fc.property(scenarioArb(48), ({ hosts, q }) => {
        const rr = computeSlots(hosts, { ...q, mode: 'round_robin' });
        const group = computeSlots(hosts, { ...q, mode: 'group' });
        const rrStarts = new Map(rr.map((s) => [s.start, s.hostIds.length]));
        for (const g of group) expect(rrStarts.get(g.start)).toBe(hosts.length);
        expect(group.length).toBe(rr.filter((s) => s.hostIds.length === hosts.length).length);
        const one = computeSlots(hosts, { ...q, mode: 'one_on_one' });
        expect(one).toEqual(computeSlots(hosts.slice(0, 1), { ...q, mode: 'one_on_one' }));
        if (hosts.length === 1) expect(one).toEqual(rr);
      }),
      { numRuns: 100 },
    );
  });
});
