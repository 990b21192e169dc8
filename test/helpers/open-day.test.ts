/**
 * nextOpenDay with an injected "now": every hour (and 23:30 UTC) of a full week in zones east and west of UTC, and
 * the edges where "now plus N days" goes wrong (DST changes in Europe and America, the last day of a
 * month and of a year, 23:30 UTC when the zone's date is already or still another one). The answer
 * is checked against the rules independently: an open weekday, on or after the first allowed date,
 * the earliest such, opening at the rule's wall-clock time, whatever the machine's own zone.
 */
import { DateTime, Settings } from 'luxon';
import { ALL_WEEK, WEEKDAYS_9_TO_5, dateAhead, instantDaysAhead, nextDstChange, nextOpenDay, openDays, type WeeklyRule } from './open-day';

const ZONES = [
  'UTC',
  'Europe/Berlin',
  'America/New_York',
  'America/Los_Angeles',
  'Pacific/Kiritimati',
  'Pacific/Pago_Pago',
  'Asia/Kolkata',
];
const SCHEDULES: Record<string, WeeklyRule[]> = {
  weekdays: WEEKDAYS_9_TO_5,
  'all week': ALL_WEEK,
  'weekend only': [
    { day: 0, start: '10:00', end: '12:00' },
    { day: 6, start: '10:00', end: '12:00' },
  ],
  'one evening': [{ day: 3, start: '18:30', end: '23:00' }],
};

/** An independent oracle: the local date `k` days after `now`'s date in `zone`, and whether `rules` open it. */
function localDate(now: number, zone: string, k: number): string {
  return DateTime.fromMillis(now, { zone }).plus({ days: k }).toISODate()!;
}
const weekdayOf = (iso: string) => new Date(`${iso}T12:00:00Z`).getUTCDay();

/** What is wrong with nextOpenDay's answer for these inputs, checked against the oracle; null when right. */
function problem(rules: WeeklyRule[], now: number, zone: string, after: number): string | null {
  const got = nextOpenDay(rules, { now, zone, after });
  const at = `${new Date(now).toISOString()} ${zone} after ${after}: ${got.date}`;
  if (got.date < localDate(now, zone, after)) return `${at} is before the first allowed date`;
  if (got.day !== weekdayOf(got.date)) return `${at} has day ${got.day}`;
  const rule = rules.find((r) => r.day === got.day && r.enabled !== false);
  if (!rule) return `${at} is not an open weekday`;
  // The earliest: no allowed date before it has a window opening after now.
  const opensAfterNow = (iso: string) =>
    rules.some((r) => r.day === weekdayOf(iso) && r.enabled !== false && DateTime.fromISO(`${iso}T${r.start}`, { zone }).toMillis() > now);
  for (let k = after, d = localDate(now, zone, k); d < got.date; d = localDate(now, zone, ++k)) {
    if (opensAfterNow(d)) return `${at}: ${d} was open earlier`;
  }
  // Opens at the rule's wall-clock time on that date, in the zone, and is in the future.
  const local = DateTime.fromMillis(got.startMs, { zone });
  if (local.toISODate() !== got.date || local.toFormat('HH:mm') !== rule.start) return `${at} opens at ${local.toISO()}`;
  if (!(got.startMs > now && got.endMs > got.startMs)) return `${at} window ${got.startMs}-${got.endMs} not after now`;
  return null;
}

function check(rules: WeeklyRule[], now: number, zone: string, after: number) {
  expect(problem(rules, now, zone, after)).toBeNull();
}

describe('nextOpenDay', () => {
  const machineZone = Settings.defaultZone;
  afterEach(() => {
    Settings.defaultZone = machineZone;
  });

  // Monday 2 March 2026 00:00 UTC, then every hour for seven days, and 23:30 UTC each day.
  const WEEK_START = Date.UTC(2026, 2, 2);
  const instants = Array.from({ length: 7 * 24 }, (_, i) => WEEK_START + i * 3_600_000);
  for (let d = 0; d < 7; d++) instants.push(WEEK_START + d * 86_400_000 + 23.5 * 3_600_000);

  it.each(Object.keys(SCHEDULES))('over a full week, every hour and 23:30 UTC, in every zone: %s', (name) => {
    const wrong: string[] = [];
    for (const zone of ZONES)
      for (const now of instants)
        for (const after of [0, 1, 2]) {
          const p = problem(SCHEDULES[name], now, zone, after);
          if (p) wrong.push(p);
        }
    expect(wrong).toEqual([]);
  });

  it.each([
    ['Europe spring forward (Sunday 29 March 2026)', '2026-03-28T23:30:00Z', 'Europe/Berlin'],
    ['Europe fall back (Sunday 25 October 2026)', '2026-10-24T23:30:00Z', 'Europe/Berlin'],
    ['America spring forward (Sunday 8 March 2026)', '2026-03-07T23:30:00Z', 'America/New_York'],
    ['America fall back (Sunday 1 November 2026)', '2026-10-31T23:30:00Z', 'America/Los_Angeles'],
    ['the last day of a month (31 January, a Saturday)', '2026-01-31T23:30:00Z', 'UTC'],
    ['the last day of February', '2026-02-28T23:30:00Z', 'Asia/Kolkata'],
    ['the last day of the year (a Thursday)', '2026-12-31T23:30:00Z', 'UTC'],
    ['the last day of the year, zone already in the next', '2026-12-31T23:30:00Z', 'Pacific/Kiritimati'],
    ['the first day of the year, zone still in the last', '2027-01-01T00:30:00Z', 'Pacific/Pago_Pago'],
  ])('%s', (_name, iso, zone) => {
    const now = Date.parse(iso);
    for (const rules of Object.values(SCHEDULES)) for (const after of [0, 1, 2, 3]) check(rules, now, zone, after);
  });

  it('counts days in the schedule zone, not the machine zone, at 23:30 UTC', () => {
    const now = Date.parse('2026-11-26T23:30:00Z'); // Thursday in UTC, already Friday in Auckland
    for (const machine of ['Pacific/Auckland', 'America/Los_Angeles', 'UTC']) {
      Settings.defaultZone = machine;
      expect(nextOpenDay(WEEKDAYS_9_TO_5, { now, zone: 'UTC', after: 2 }).date).toBe('2026-11-30'); // Saturday → Monday
      expect(nextOpenDay(WEEKDAYS_9_TO_5, { now, zone: 'Pacific/Auckland', after: 1 }).date).toBe('2026-11-30'); // Sat 28 → Mon 30
      expect(nextOpenDay(WEEKDAYS_9_TO_5, { now, zone: 'America/Los_Angeles', after: 1 }).date).toBe('2026-11-27'); // Fri
    }
  });

  it('the Thursday the suite failed on: two days ahead is a Saturday, so the answer is the Monday', () => {
    const got = nextOpenDay(WEEKDAYS_9_TO_5, { now: Date.parse('2026-11-26T11:45:00Z'), after: 2 });
    expect(got.date).toBe('2026-11-30');
    expect(new Date(got.startMs).toISOString()).toBe('2026-11-30T09:00:00.000Z');
  });

  it('skips a window that a DST gap empties, and keeps one the gap only shortens', () => {
    const now = Date.parse('2026-03-27T12:00:00Z'); // Friday
    // 02:00-03:00 does not exist in Berlin on Sunday 29 March: the next Sunday.
    expect(nextOpenDay([{ day: 0, start: '02:00', end: '03:00' }], { now, zone: 'Europe/Berlin' }).date).toBe('2026-04-05');
    const shortened = nextOpenDay([{ day: 0, start: '01:00', end: '04:00' }], { now, zone: 'Europe/Berlin' });
    expect(shortened.date).toBe('2026-03-29');
    expect(shortened.endMs - shortened.startMs).toBe(2 * 3_600_000);
    // A fall-back day is 25 hours long.
    const long = nextOpenDay(ALL_WEEK, { now: Date.parse('2026-10-24T12:00:00Z'), zone: 'Europe/Berlin' });
    expect(long.endMs - long.startMs).toBe(25 * 3_600_000);
  });

  it('ignores disabled rules and throws when nothing is ever open', () => {
    const now = Date.parse('2026-11-26T11:45:00Z');
    expect(nextOpenDay([{ day: 5, start: '09:00', end: '17:00', enabled: false }, ...WEEKDAYS_9_TO_5.slice(0, 1)], { now }).date).toBe(
      '2026-11-30',
    );
    expect(() => nextOpenDay([{ day: 1, start: '09:00', end: '17:00', enabled: false }], { now })).toThrow(/no day/);
    expect(() => nextOpenDay(ALL_WEEK, { now, zone: 'Not/AZone' })).toThrow(/unknown zone/);
  });

  it('openDays gives successive open days; dateAhead counts calendar days in the zone', () => {
    const now = Date.parse('2026-12-31T23:30:00Z'); // Thursday, last day of the year
    expect(openDays(WEEKDAYS_9_TO_5, 4, { now }).map((d) => d.date)).toEqual(['2027-01-01', '2027-01-04', '2027-01-05', '2027-01-06']);
    expect(dateAhead(2, { now })).toBe('2027-01-02');
    expect(dateAhead(1, { now, zone: 'Pacific/Kiritimati' })).toBe('2027-01-02'); // already 1 January there;
  });

  it('nextDstChange finds the change day in the zone; instantDaysAhead is plain 24 h days', () => {
    const now = Date.parse('2026-11-26T23:30:00Z');
    expect(nextDstChange('Europe/Berlin', { now }).toISODate()).toBe('2027-03-28');
    expect(nextDstChange('America/New_York', { now }).toISODate()).toBe('2027-03-14');
    expect(nextDstChange('America/New_York', { now: Date.parse('2026-10-30T12:00:00Z'), after: 2 }).toISODate()).toBe('2026-11-01');
    expect(() => nextDstChange('UTC', { now })).toThrow(/no DST/);
    expect(instantDaysAhead(3, now)).toBe(now + 3 * 24 * 3_600_000);
  });
});
