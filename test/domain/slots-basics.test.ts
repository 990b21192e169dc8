import { computeSlots, isSlotOffered } from '../../domain/slots';
import { MIN, at, local, utc, weekdays, host, dayRange, query, localStarts } from './slot-fixtures';

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
