import { MEETING_STATUSES, canTransition, nextStatuses, isMeetingStatus, type MeetingStatus } from '../../domain/meeting-state';

const ALLOWED: Array<[MeetingStatus, MeetingStatus]> = [
  ['pending_confirmation', 'scheduled'],
  ['pending_confirmation', 'cancelled'],
  ['scheduled', 'completed'],
  ['scheduled', 'cancelled'],
  ['scheduled', 'rescheduled'],
  ['scheduled', 'no_show'],
  ['completed', 'no_show'],
  ['no_show', 'completed'],
];

describe('meeting status transitions', () => {
  it('lists the six statuses', () => {
    expect([...MEETING_STATUSES]).toEqual(['pending_confirmation', 'scheduled', 'completed', 'cancelled', 'rescheduled', 'no_show']);
  });

  it('allows exactly the documented transitions (full 6x6 table)', () => {
    const allowed = new Set(ALLOWED.map(([a, b]) => `${a}->${b}`));
    let count = 0;
    for (const from of MEETING_STATUSES) {
      for (const to of MEETING_STATUSES) {
        const expected = allowed.has(`${from}->${to}`);
        expect({ from, to, ok: canTransition(from, to) }).toEqual({ from, to, ok: expected });
        if (expected) count++;
      }
    }
    expect(count).toBe(8);
  });

  it('never allows same -> same', () => {
    for (const s of MEETING_STATUSES) expect(canTransition(s, s)).toBe(false);
  });

  it('cancelled and rescheduled are terminal', () => {
    expect(nextStatuses('cancelled')).toEqual([]);
    expect(nextStatuses('rescheduled')).toEqual([]);
  });

  it('rejects unknown statuses', () => {
    expect(canTransition('bogus' as MeetingStatus, 'scheduled')).toBe(false);
    expect(canTransition('scheduled', 'bogus' as MeetingStatus)).toBe(false);
    expect(isMeetingStatus('scheduled')).toBe(true);
    expect(isMeetingStatus('nope')).toBe(false);
  });
});
