export const MEETING_STATUSES = ['pending_confirmation', 'scheduled', 'completed', 'cancelled', 'rescheduled', 'no_show'] as const;

export type MeetingStatus = (typeof MEETING_STATUSES)[number];

const TRANSITIONS: Readonly<Record<MeetingStatus, readonly MeetingStatus[]>> = {
  pending_confirmation: ['scheduled', 'cancelled'],
  scheduled: ['completed', 'cancelled', 'rescheduled', 'no_show'],
  completed: ['no_show'],
  no_show: ['completed'],
  cancelled: [],
  rescheduled: [],
};

export function isMeetingStatus(v: unknown): v is MeetingStatus {
  return typeof v === 'string' && (MEETING_STATUSES as readonly string[]).includes(v);
}

/** Allowed status transitions; same -> same and anything unknown is false. */
export function canTransition(from: MeetingStatus, to: MeetingStatus): boolean {
  if (!isMeetingStatus(from) || !isMeetingStatus(to)) return false;
  return TRANSITIONS[from].includes(to);
}

/** Statuses reachable from `from` in one transition. */
export function nextStatuses(from: MeetingStatus): readonly MeetingStatus[] {
  return isMeetingStatus(from) ? TRANSITIONS[from] : [];
}
