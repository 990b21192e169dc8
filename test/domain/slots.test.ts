import { DateTime } from 'luxon';
import { computeSlots, isSlotOffered, type AvailabilityRule, type HostSchedule, type SlotQuery } from '../../domain/slots';

const MIN = 60_000;
const HOUR = 60 * MIN;

/** Instant from an ISO string with an explicit offset (unambiguous) or interpreted in `zone`. */
const at = (iso: string, zone = 'UTC'): number => {
  const dt = DateTime.fromISO(iso, { zone, setZone: false });
  if (!dt.isValid) throw new Error(`bad iso ${iso}`);
  return dt.toMillis();
};
const local = (ms: number, zone: string): string => DateTime.fromMillis(ms, { zone }).toFormat("yyyy-MM-dd'T'HH:mmZZ");
const utc = (ms: number): string => new Date(ms).toISOString().slice(0, 16) + 'Z';

const everyDay = (start: string, end: string): AvailabilityRule[] =>
  [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, start, end, enabled: true }));
const weekdays = (start = '09:00', end = '17:00'): AvailabilityRule[] => [1, 2, 3, 4, 5].map((day) => ({ day, start, end, enabled: true }));

const host = (over: Partial<HostSchedule> = {}): HostSchedule => ({
  hostId: 'h1',
  timezone: 'America/New_York',
  rules: weekdays(),
  overrides: [],
  busy: [],
  ...over,
});

/** Local calendar day [start, end) of `date` in `zone`. */
const dayRange = (date: string, zone: string): { rangeStart: number; rangeEnd: number } => {
  const s = DateTime.fromISO(date, { zone }).startOf('day');
  return { rangeStart: s.toMillis(), rangeEnd: s.plus({ days: 1 }).toMillis() };
};

const query = (over: Partial<SlotQuery> = {}): SlotQuery => ({
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

const localStarts = (hosts: HostSchedule[], q: SlotQuery, zone = hosts[0].timezone): string[] =>
  computeSlots(hosts, q).map((s) => DateTime.fromMillis(s.start, { zone }).toFormat('HH:mm'));

describe('computeSlots: basics', () => {
  const NY = 'America/New_York';

  it('plain weekday: 09:00-17:00 local, 30 min slots', () => {
    const slots = computeSlots([host()], query(dayRange('2026-06-16', NY))); // Tuesday, EDT
    expect(slots).toHaveLength(16);
    expect(utc(slots[0].start)).toBe('2026-06-16T13:00Z');
    expect(slots[0].end - slots[0].start).toBe(30 * MIN);
    expect(local(slots[15].start, NY)).toBe('2026-06-16T16:30-04:00');
    expect(slots.every((s) => s.hostIds.length === 1 && s.hostIds[0] === 'h1')).toBe(true);
  });

  it('no rules on the weekend, disabled rules ignored', () => {
    expect(computeSlots([host()], query(dayRange('2026-06-20', NY)))).toEqual([]); // Saturday
    const h = host({ rules: [{ day: 2, start: '09:00', end: '17:00', enabled: false }] });
    expect(computeSlots([h], query(dayRange('2026-06-16', NY)))).toEqual([]);
  });

  it('date override replaces the weekly rules of that date only', () => {
    const h = host({
      overrides: [
        { date: '2026-06-16', is_unavailable: false, start: '12:00', end: '14:00' },
        { date: '2026-06-20', is_unavailable: false, start: '10:00:00', end: '11:00:00' }, // Saturday, HH:MM:SS accepted
      ],
    });
    expect(localStarts([h], query(dayRange('2026-06-16', NY)))).toEqual(['12:00', '12:30', '13:00', '13:30']);
    expect(localStarts([h], query(dayRange('2026-06-20', NY)))).toEqual(['10:00', '10:30']);
    expect(localStarts([h], query(dayRange('2026-06-17', NY)))).toHaveLength(16);
  });

  it('several override ranges on one date are all used', () => {
    const h = host({
      overrides: [
        { date: '2026-06-16', is_unavailable: false, start: '08:00', end: '09:00' },
        { date: '2026-06-16', is_unavailable: false, start: '18:00', end: '19:00' },
      ],
    });
    expect(localStarts([h], query(dayRange('2026-06-16', NY)))).toEqual(['08:00', '08:30', '18:00', '18:30']);
  });

  it('unavailable override blocks the whole day', () => {
    const h = host({ overrides: [{ date: '2026-06-16', is_unavailable: true }] });
    const q = query(dayRange('2026-06-16', NY));
    expect(computeSlots([h], q)).toEqual([]);
    expect(isSlotOffered([h], q, at('2026-06-16T10:00', NY))).toEqual({ offered: false, reason: 'outside_availability', hostIds: [] });
    // an unavailable override wins over hours given for the same date
    const h2 = host({
      overrides: [
        { date: '2026-06-16', is_unavailable: false, start: '10:00', end: '12:00' },
        { date: '2026-06-16', is_unavailable: true },
      ],
    });
    expect(computeSlots([h2], q)).toEqual([]);
  });

  it('buffers: both sides of the busy interval widened by before + after', () => {
    const h = host({ busy: [{ start: at('2026-06-16T11:00', NY), end: at('2026-06-16T12:00', NY) }] });
    const q = query({ ...dayRange('2026-06-16', NY), incrementMinutes: 15, bufferBeforeMinutes: 15, bufferAfterMinutes: 10 });
    const starts = localStarts([h], q);
    // conflict iff s-15 < 12:00+10 and 11:00-15 < s+30+10  <=>  10:05 < s < 12:25
    expect(starts).toContain('10:00');
    expect(starts).not.toContain('10:15');
    expect(starts).not.toContain('12:15');
    expect(starts).toContain('12:30');
    expect(starts.filter((s) => s >= '10:00' && s <= '12:30')).toEqual(['10:00', '12:30']);
    expect(isSlotOffered([h], q, at('2026-06-16T12:15', NY))).toEqual({ offered: false, reason: 'busy', hostIds: [] });
    expect(isSlotOffered([h], q, at('2026-06-16T12:30', NY))).toEqual({ offered: true, hostIds: ['h1'] });
  });

  it('without buffers meetings may be back to back', () => {
    const h = host({ busy: [{ start: at('2026-06-16T11:00', NY), end: at('2026-06-16T12:00', NY) }] });
    const starts = localStarts([h], query(dayRange('2026-06-16', NY)));
    expect(starts).toContain('10:30');
    expect(starts).not.toContain('11:00');
    expect(starts).not.toContain('11:30');
    expect(starts).toContain('12:00');
  });

  it('a slot may exactly fill the gap between two meetings (touching forbidden ranges do not merge)', () => {
    const busy = [
      { start: at('2026-06-16T10:00', NY), end: at('2026-06-16T10:30', NY) },
      { start: at('2026-06-16T11:00', NY), end: at('2026-06-16T11:30', NY) },
    ];
    const q = query(dayRange('2026-06-16', NY));
    expect(localStarts([host({ busy })], q).filter((s) => s >= '10:00' && s < '12:00')).toEqual(['10:30', '11:30']);
    // with 10 + 5 min of buffers the gap must be 30 + 2 * 15 = 60 min
    const busy2 = [busy[0], { start: at('2026-06-16T11:30', NY), end: at('2026-06-16T12:00', NY) }];
    expect(
      localStarts([host({ busy: busy2 })], { ...q, incrementMinutes: 15, bufferBeforeMinutes: 10, bufferAfterMinutes: 5 }).filter(
        (s) => s >= '10:00' && s < '12:15',
      ),
    ).toEqual(['10:45']);
  });

  it('buffers may extend outside working hours', () => {
    const q = query({ ...dayRange('2026-06-16', NY), bufferBeforeMinutes: 30, bufferAfterMinutes: 30 });
    expect(localStarts([host()], q)[0]).toBe('09:00');
  });

  it('minimum notice', () => {
    const q = query({ ...dayRange('2026-06-16', NY), now: at('2026-06-16T10:07', NY), minNoticeMinutes: 60 });
    expect(localStarts([host()], q)[0]).toBe('11:30');
    expect(isSlotOffered([host()], q, at('2026-06-16T11:00', NY)).reason).toBe('within_notice');
    expect(isSlotOffered([host()], q, at('2026-06-16T11:30', NY)).offered).toBe(true);
  });

  it('booking horizon is inclusive of now + maxBookingDays', () => {
    const q = query({ ...dayRange('2026-06-16', NY), now: at('2026-06-15T12:00', NY), maxBookingDays: 1 });
    expect(localStarts([host()], q)).toEqual(['09:00', '09:30', '10:00', '10:30', '11:00', '11:30', '12:00']);
    expect(isSlotOffered([host()], q, at('2026-06-16T12:30', NY)).reason).toBe('past_horizon');
  });

  it('only starts inside [rangeStart, rangeEnd)', () => {
    const q = query({ rangeStart: at('2026-06-16T10:00', NY), rangeEnd: at('2026-06-16T11:00', NY) });
    expect(localStarts([host()], q)).toEqual(['10:00', '10:30']);
    expect(isSlotOffered([host()], q, at('2026-06-16T11:00', NY))).toEqual({ offered: false, reason: 'outside_availability', hostIds: [] });
  });

  it('aligns starts to the local wall clock, not to the working interval start', () => {
    const h = host({ rules: weekdays('09:10', '12:00') });
    const q = query(dayRange('2026-06-16', NY));
    expect(localStarts([h], q)).toEqual(['09:30', '10:00', '10:30', '11:00', '11:30']);
    expect(isSlotOffered([h], q, at('2026-06-16T09:10', NY)).reason).toBe('off_increment');
    expect(isSlotOffered([h], q, at('2026-06-16T09:30', NY) + 1).reason).toBe('off_increment');
    expect(localStarts([h], { ...q, incrementMinutes: 15 })[0]).toBe('09:15');
    expect(localStarts([h], { ...q, incrementMinutes: 60, durationMinutes: 60 })).toEqual(['10:00', '11:00']);
  });

  it('a slot must fit entirely; adjacent rules (and days) merge into one working interval', () => {
    const h = host({
      rules: [
        { day: 2, start: '09:00', end: '12:00', enabled: true },
        { day: 2, start: '12:00', end: '13:00', enabled: true },
        { day: 2, start: '22:00', end: '24:00', enabled: true },
        { day: 3, start: '00:00', end: '01:00', enabled: true },
      ],
    });
    const q = query({ rangeStart: at('2026-06-16T00:00', NY), rangeEnd: at('2026-06-17T12:00', NY), durationMinutes: 60 });
    expect(computeSlots([h], q).map((s) => local(s.start, NY))).toEqual([
      '2026-06-16T09:00-04:00',
      '2026-06-16T09:30-04:00',
      '2026-06-16T10:00-04:00',
      '2026-06-16T10:30-04:00',
      '2026-06-16T11:00-04:00',
      '2026-06-16T11:30-04:00',
      '2026-06-16T12:00-04:00',
      '2026-06-16T22:00-04:00',
      '2026-06-16T22:30-04:00',
      '2026-06-16T23:00-04:00',
      '2026-06-16T23:30-04:00',
      '2026-06-17T00:00-04:00',
    ]);
  });

  it('empty host list gives no slots and never throws', () => {
    const q = query(dayRange('2026-06-16', NY));
    expect(computeSlots([], q)).toEqual([]);
    expect(isSlotOffered([], q, at('2026-06-16T10:00', NY)).offered).toBe(false);
  });

  it('unknown timezone throws a clear error', () => {
    const q = query(dayRange('2026-06-16', NY));
    expect(() => computeSlots([host({ timezone: 'Mars/Olympus_Mons' })], q)).toThrow(new Error('invalid timezone: Mars/Olympus_Mons'));
    expect(() => isSlotOffered([host({ timezone: 'Nope' })], q, q.rangeStart)).toThrow('invalid timezone: Nope');
    expect(() => computeSlots([host(), host({ hostId: 'h2', timezone: 'Bad/Zone' })], { ...q, mode: 'round_robin' })).toThrow(
      'invalid timezone: Bad/Zone',
    );
  });

  it('does not depend on the order of busy intervals', () => {
    const busy = [10, 13, 11, 15].map((hh) => ({ start: at(`2026-06-16T${hh}:00`, NY), end: at(`2026-06-16T${hh}:45`, NY) }));
    const q = query({ ...dayRange('2026-06-16', NY), bufferAfterMinutes: 5 });
    expect(computeSlots([host({ busy })], q)).toEqual(computeSlots([host({ busy: [...busy].reverse() })], q));
  });
});

describe('computeSlots: multiple hosts', () => {
  const NY = 'America/New_York';
  const d = (hhmm: string) => at(`2026-06-16T${hhmm}`, NY);
  const a = host({ hostId: 'a', busy: [{ start: d('09:00'), end: d('10:00') }] });
  const b = host({ hostId: 'b', busy: [{ start: d('09:30'), end: d('11:00') }] });
  const c = host({ hostId: 'c', rules: weekdays('10:00', '12:00') });
  const q = query({ rangeStart: d('09:00'), rangeEnd: d('12:00') });

  it('one_on_one uses hosts[0] only', () => {
    const slots = computeSlots([a, b, c], q);
    expect(slots.map((s) => local(s.start, NY).slice(11, 16))).toEqual(['10:00', '10:30', '11:00', '11:30']);
    expect(slots.every((s) => s.hostIds.join() === 'a')).toBe(true);
  });

  it('round_robin offers a slot when any host is free and lists the free hosts', () => {
    const slots = computeSlots([a, b, c], { ...q, mode: 'round_robin' });
    expect(slots.map((s) => [local(s.start, NY).slice(11, 16), s.hostIds.join(',')])).toEqual([
      ['09:00', 'b'],
      ['10:00', 'a,c'],
      ['10:30', 'a,c'],
      ['11:00', 'a,b,c'],
      ['11:30', 'a,b,c'],
    ]);
    expect(isSlotOffered([a, b, c], { ...q, mode: 'round_robin' }, d('10:00'))).toEqual({ offered: true, hostIds: ['a', 'c'] });
    expect(isSlotOffered([a, b, c], { ...q, mode: 'round_robin' }, d('09:30'))).toEqual({ offered: false, reason: 'busy', hostIds: [] });
  });

  it('group needs every host free', () => {
    const slots = computeSlots([a, b, c], { ...q, mode: 'group' });
    expect(slots.map((s) => [local(s.start, NY).slice(11, 16), s.hostIds.join(',')])).toEqual([
      ['11:00', 'a,b,c'],
      ['11:30', 'a,b,c'],
    ]);
    expect(isSlotOffered([a, b, c], { ...q, mode: 'group' }, d('10:00')).reason).toBe('busy');
    expect(isSlotOffered([a, b, c], { ...q, mode: 'group' }, d('09:00')).reason).toBe('outside_availability');
  });

  it('aligns on hosts[0] timezone even when other hosts live elsewhere', () => {
    const k = host({ hostId: 'k', timezone: 'Asia/Kolkata', rules: everyDay('00:00', '24:00') });
    const u = host({ hostId: 'u', timezone: 'UTC', rules: everyDay('00:00', '24:00') });
    const qq = query({
      rangeStart: at('2026-06-16T00:00Z'),
      rangeEnd: at('2026-06-16T04:00Z'),
      durationMinutes: 60,
      incrementMinutes: 60,
      mode: 'round_robin',
    });
    expect(computeSlots([k, u], qq).map((s) => utc(s.start))).toEqual([
      '2026-06-16T00:30Z',
      '2026-06-16T01:30Z',
      '2026-06-16T02:30Z',
      '2026-06-16T03:30Z',
    ]); // range bounds starts only
    expect(computeSlots([u, k], qq).map((s) => utc(s.start))).toEqual([
      '2026-06-16T00:00Z',
      '2026-06-16T01:00Z',
      '2026-06-16T02:00Z',
      '2026-06-16T03:00Z',
    ]);
  });
});

describe('computeSlots: DST and odd offsets', () => {
  const cases: Array<[string, string, string]> = [
    ['America/New_York', '2026-03-08', 'spring forward'],
    ['America/New_York', '2026-11-01', 'fall back'],
    ['Europe/London', '2026-03-29', 'spring forward'],
    ['Europe/London', '2026-10-25', 'fall back'],
    ['Australia/Lord_Howe', '2026-04-05', 'fall back 30 min'],
    ['Australia/Lord_Howe', '2026-10-04', 'spring forward 30 min'],
  ];

  it.each(cases)('%s %s really is a DST day (%s)', (zone, date) => {
    const s = DateTime.fromISO(date, { zone }).startOf('day');
    expect(s.offset).not.toBe(s.plus({ days: 1 }).offset);
  });

  it.each(cases)('%s %s: 09:00-17:00 stays 09:00-17:00 local wall time', (zone, date) => {
    const h = host({ timezone: zone, rules: everyDay('09:00', '17:00') });
    const slots = computeSlots([h], query({ ...dayRange(date, zone), durationMinutes: 60, incrementMinutes: 60 }));
    expect(slots.map((s) => DateTime.fromMillis(s.start, { zone }).toFormat('HH:mm'))).toEqual(
      ['09', '10', '11', '12', '13', '14', '15', '16'].map((x) => `${x}:00`),
    );
    expect(slots[0].start).toBe(
      DateTime.fromObject({ year: +date.slice(0, 4), month: +date.slice(5, 7), day: +date.slice(8, 10), hour: 9 }, { zone }).toMillis(),
    );
    expect(slots.every((s) => s.end - s.start === HOUR)).toBe(true);
  });

  it('New York spring forward: 02:xx does not exist and is skipped', () => {
    const zone = 'America/New_York';
    const h = host({ timezone: zone, rules: everyDay('00:00', '05:00') });
    const q = query(dayRange('2026-03-08', zone));
    expect(computeSlots([h], q).map((s) => local(s.start, zone))).toEqual([
      '2026-03-08T00:00-05:00',
      '2026-03-08T00:30-05:00',
      '2026-03-08T01:00-05:00',
      '2026-03-08T01:30-05:00',
      '2026-03-08T03:00-04:00',
      '2026-03-08T03:30-04:00',
      '2026-03-08T04:00-04:00',
      '2026-03-08T04:30-04:00',
    ]);
    // 01:30 EST + 60 min = 03:30 EDT: still inside 00:00-05:00
    expect(isSlotOffered([h], { ...q, durationMinutes: 60 }, at('2026-03-08T01:30-05:00')).offered).toBe(true);
    // the working day is 4 real hours long: 00:00 EST -> 05:00 EDT
    const long = computeSlots([h], { ...q, durationMinutes: 240, incrementMinutes: 60 });
    expect(long.map((s) => local(s.start, zone))).toEqual(['2026-03-08T00:00-05:00']);
    // a rule starting inside the gap starts when the clock jumps
    const g = host({ timezone: zone, rules: everyDay('02:30', '04:00') });
    expect(computeSlots([g], q).map((s) => local(s.start, zone))).toEqual(['2026-03-08T03:00-04:00', '2026-03-08T03:30-04:00']);
  });

  it('New York fall back: repeated 01:xx resolves to its first occurrence', () => {
    const zone = 'America/New_York';
    const h = host({ timezone: zone, rules: everyDay('00:00', '04:00') });
    const q = query(dayRange('2026-11-01', zone));
    expect(computeSlots([h], q).map((s) => local(s.start, zone))).toEqual([
      '2026-11-01T00:00-04:00',
      '2026-11-01T00:30-04:00',
      '2026-11-01T01:00-04:00',
      '2026-11-01T01:30-04:00',
      '2026-11-01T02:00-05:00',
      '2026-11-01T02:30-05:00',
      '2026-11-01T03:00-05:00',
      '2026-11-01T03:30-05:00',
    ]);
    expect(isSlotOffered([h], q, at('2026-11-01T01:00-05:00')).reason).toBe('off_increment');
    expect(isSlotOffered([h], q, at('2026-11-01T01:00-04:00')).offered).toBe(true);
    // the working day is 5 real hours long: a 5 h meeting fits
    expect(computeSlots([h], { ...q, durationMinutes: 300, incrementMinutes: 60 }).map((s) => utc(s.start))).toEqual(['2026-11-01T04:00Z']);
  });

  it('London spring forward and fall back', () => {
    const zone = 'Europe/London';
    const h = host({ timezone: zone, rules: everyDay('00:00', '03:00') });
    expect(computeSlots([h], query(dayRange('2026-03-29', zone))).map((s) => utc(s.start))).toEqual([
      '2026-03-29T00:00Z',
      '2026-03-29T00:30Z',
      '2026-03-29T01:00Z',
      '2026-03-29T01:30Z', // 00:00, 00:30 GMT, 02:00, 02:30 BST
    ]);
    expect(
      computeSlots([h], query({ ...dayRange('2026-10-25', zone), durationMinutes: 60, incrementMinutes: 60 })).map((s) =>
        local(s.start, zone),
      ),
    ).toEqual(['2026-10-25T00:00+01:00', '2026-10-25T01:00+01:00', '2026-10-25T02:00+00:00']);
  });

  it('Lord Howe: 30-minute DST shifts', () => {
    const zone = 'Australia/Lord_Howe';
    const h = host({ timezone: zone, rules: everyDay('00:00', '04:00') });
    // 2026-04-05: 02:00 +11:00 -> 01:30 +10:30, so 01:30-01:59 happens twice
    expect(computeSlots([h], query(dayRange('2026-04-05', zone))).map((s) => local(s.start, zone))).toEqual([
      '2026-04-05T00:00+11:00',
      '2026-04-05T00:30+11:00',
      '2026-04-05T01:00+11:00',
      '2026-04-05T01:30+11:00',
      '2026-04-05T02:00+10:30',
      '2026-04-05T02:30+10:30',
      '2026-04-05T03:00+10:30',
      '2026-04-05T03:30+10:30',
    ]);
    // 2026-10-04: 02:00 +10:30 -> 02:30 +11:00, so 02:00-02:29 does not exist
    const q = query({ ...dayRange('2026-10-04', zone) });
    expect(computeSlots([h], q).map((s) => local(s.start, zone))).toEqual([
      '2026-10-04T00:00+10:30',
      '2026-10-04T00:30+10:30',
      '2026-10-04T01:00+10:30',
      '2026-10-04T01:30+10:30',
      '2026-10-04T02:30+11:00',
      '2026-10-04T03:00+11:00',
      '2026-10-04T03:30+11:00',
    ]);
    expect(computeSlots([h], { ...q, durationMinutes: 60, incrementMinutes: 60 }).map((s) => utc(s.start))).toEqual([
      '2026-10-03T13:30Z',
      '2026-10-03T14:30Z',
      '2026-10-03T16:00Z',
    ]);
  });

  it('Asia/Kolkata (+05:30, no DST): hourly slots start at :30 UTC', () => {
    const zone = 'Asia/Kolkata';
    const h = host({ timezone: zone, rules: weekdays() });
    const slots = computeSlots([h], query({ ...dayRange('2026-06-15', zone), durationMinutes: 60, incrementMinutes: 60 }));
    expect(slots.map((s) => utc(s.start))).toEqual(
      ['03:30', '04:30', '05:30', '06:30', '07:30', '08:30', '09:30', '10:30'].map((t) => `2026-06-15T${t}Z`),
    );
    // a visitor's local day (Los Angeles, 07:00Z..07:00Z) touches two host days
    const visitor = computeSlots(
      [h],
      query({ ...dayRange('2026-06-15', 'America/Los_Angeles'), durationMinutes: 60, incrementMinutes: 60 }),
    );
    expect(visitor.map((s) => local(s.start, zone))).toEqual([
      '2026-06-15T13:00+05:30',
      '2026-06-15T14:00+05:30',
      '2026-06-15T15:00+05:30',
      '2026-06-15T16:00+05:30',
      '2026-06-16T09:00+05:30',
      '2026-06-16T10:00+05:30',
      '2026-06-16T11:00+05:30',
      '2026-06-16T12:00+05:30',
    ]);
  });
});
