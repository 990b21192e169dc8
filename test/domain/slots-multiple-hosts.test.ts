import { computeSlots, isSlotOffered } from '../../domain/slots';
import { at, local, utc, everyDay, weekdays, host, query } from './slot-fixtures';

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
