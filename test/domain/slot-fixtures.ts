/** Builders shared by the slot-engine suites (test/domain/slots-*.test.ts): instants, rules, hosts, queries. */
import { DateTime } from 'luxon';
import { computeSlots, type AvailabilityRule, type HostSchedule, type SlotQuery } from '../../domain/slots';

export const MIN = 60_000;
export const HOUR = 60 * MIN;

/** Instant from an ISO string with an explicit offset (unambiguous) or interpreted in `zone`. */
export const at = (iso: string, zone = 'UTC'): number => {
  const dt = DateTime.fromISO(iso, { zone, setZone: false });
  if (!dt.isValid) throw new Error(`bad iso ${iso}`);
  return dt.toMillis();
};
export const local = (ms: number, zone: string): string => DateTime.fromMillis(ms, { zone }).toFormat("yyyy-MM-dd'T'HH:mmZZ");
export const utc = (ms: number): string => new Date(ms).toISOString().slice(0, 16) + 'Z';

export const everyDay = (start: string, end: string): AvailabilityRule[] =>
  [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, start, end, enabled: true }));
export const weekdays = (start = '09:00', end = '17:00'): AvailabilityRule[] =>
  [1, 2, 3, 4, 5].map((day) => ({ day, start, end, enabled: true }));

export const host = (over: Partial<HostSchedule> = {}): HostSchedule => ({
  hostId: 'h1',
  timezone: 'America/New_York',
  rules: weekdays(),
  overrides: [],
  busy: [],
  ...over,
});

/** Local calendar day [start, end) of `date` in `zone`. */
export const dayRange = (date: string, zone: string): { rangeStart: number; rangeEnd: number } => {
  const s = DateTime.fromISO(date, { zone }).startOf('day');
  return { rangeStart: s.toMillis(), rangeEnd: s.plus({ days: 1 }).toMillis() };
};

export const query = (over: Partial<SlotQuery> = {}): SlotQuery => ({
  rangeStart: 0,
  rangeEnd: 0,
  now: at('2026-01-01T00:00Z'),
  durationMinutes: 30,
  incrementMinutes: 30,
  bufferBeforeMinutes: 0,
  bufferAfterMinutes: 0,
  minNoticeMinutes: 0,
  maxBookingDays: 365,
  mode: 'one_on_one',
  ...over,
});

export const localStarts = (hosts: HostSchedule[], q: SlotQuery, zone = hosts[0].timezone): string[] =>
  computeSlots(hosts, q).map((s) => DateTime.fromMillis(s.start, { zone }).toFormat('HH:mm'));
