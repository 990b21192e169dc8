import { DateTime } from 'luxon';
import { computeSlots, isSlotOffered } from '../../domain/slots';
import { HOUR, at, local, utc, everyDay, weekdays, host, dayRange, query } from './slot-fixtures';

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
