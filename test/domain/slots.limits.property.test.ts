/**
 * Property tests for booking limits in the slot engine, against an independent oracle written with
 * luxon: a slot is kept exactly when the host's bookings on its local day and in its local
 * (Monday-to-Sunday) week are below the limits, and nothing else changes.
 */
import fc from 'fast-check';
import { DateTime } from 'luxon';
import { computeSlots, isSlotOffered, type HostSchedule, type SlotQuery } from '../../domain/slots';

const DAY = 86_400_000;
const ZONES = ['UTC', 'America/New_York', 'Europe/London', 'Australia/Lord_Howe', 'Asia/Kolkata', 'Pacific/Chatham'];
const ALL_WEEK = [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, start: '00:00', end: '24:00', enabled: true }));
// around the 2026 DST changes of the northern and southern zones
const BASES = [Date.UTC(2026, 2, 2), Date.UTC(2026, 9, 20), Date.UTC(2026, 3, 1)];

const dayKey = (t: number, zone: string) => DateTime.fromMillis(t, { zone }).toISODate();
const weekKey = (t: number, zone: string) => DateTime.fromMillis(t, { zone }).startOf('week').toISODate();

const scenario = fc.record({
  zone: fc.constantFrom(...ZONES),
  base: fc.constantFrom(...BASES),
  booked: fc.array(fc.integer({ min: -8 * 24, max: 22 * 24 }), { maxLength: 40 }),
  perDay: fc.option(fc.integer({ min: 1, max: 3 }), { nil: null }),
  perWeek: fc.option(fc.integer({ min: 1, max: 8 }), { nil: null }),
});

describe('slot engine: booking limits', () => {
  test('a slot is offered exactly when its local day and week are under the limits', () => {
    fc.assert(
      fc.property(scenario, ({ zone, base, booked, perDay, perWeek }) => {
        const bookedStarts = booked.map((h) => base + h * 3_600_000);
        const host: HostSchedule = { hostId: 'h', timezone: zone, rules: ALL_WEEK, overrides: [], busy: [], bookedStarts };
        const q: SlotQuery = {
          rangeStart: base,
          rangeEnd: base + 14 * DAY,
          now: base - DAY,
          durationMinutes: 30,
          incrementMinutes: 60,
          bufferBeforeMinutes: 0,
          bufferAfterMinutes: 0,
          minNoticeMinutes: 0,
          maxBookingDays: 30,
          mode: 'one_on_one',
        };
        const unlimited = computeSlots([host], q);
        const limited = computeSlots([host], { ...q, limits: { perDay, perWeek } });
        const kept = new Set(limited.map((s) => s.start));
        expect(unlimited.length).toBeGreaterThan(0);
        const perDayCount = new Map<string, number>();
        const perWeekCount = new Map<string, number>();
        for (const b of bookedStarts) {
          perDayCount.set(dayKey(b, zone)!, (perDayCount.get(dayKey(b, zone)!) ?? 0) + 1);
          perWeekCount.set(weekKey(b, zone)!, (perWeekCount.get(weekKey(b, zone)!) ?? 0) + 1);
        }
        for (const [i, s] of unlimited.entries()) {
          const onDay = perDayCount.get(dayKey(s.start, zone)!) ?? 0;
          const inWeek = perWeekCount.get(weekKey(s.start, zone)!) ?? 0;
          const allowed = (perDay === null || onDay < perDay) && (perWeek === null || inWeek < perWeek);
          expect(kept.has(s.start)).toBe(allowed);
          if (i % 7 === 0) {
            // the single-slot check (the booking path) agrees, with its reason
            const check = isSlotOffered([host], { ...q, limits: { perDay, perWeek } }, s.start);
            expect(check.offered).toBe(allowed);
            if (!allowed) expect(check.reason).toBe('booking_limit');
          }
        }
        const offered = new Set(unlimited.map((u) => u.start));
        for (const s of limited) expect(offered.has(s.start)).toBe(true);
      }),
      { numRuns: 50 },
    );
  });
});
