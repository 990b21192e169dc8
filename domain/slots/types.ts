/** Public types of the slot engine. See ./index.ts for the semantics. */

export interface AvailabilityRule {
  /** 0 = Sunday .. 6 = Saturday (local to the schedule timezone). */
  day: number;
  /** HH:MM (HH:MM:SS accepted). */
  start: string;
  /** HH:MM, may be 24:00. A rule whose end <= start is empty (no overnight rules). */
  end: string;
  enabled: boolean;
}

export interface DateOverride {
  /** YYYY-MM-DD in the schedule timezone. */
  date: string;
  is_unavailable: boolean;
  /** When not unavailable: working hours for that date (replace the whole day's weekly rules). */
  start?: string | null;
  end?: string | null;
}

export interface BusyInterval {
  /** epoch ms, inclusive */
  start: number;
  /** epoch ms, exclusive */
  end: number;
}

export interface HostSchedule {
  hostId: string;
  /** IANA timezone of the schedule. */
  timezone: string;
  rules: AvailabilityRule[];
  overrides: DateOverride[];
  /** Existing meetings and calendar events, raw (NOT widened by buffers). */
  busy: BusyInterval[];
  /** Starts (epoch ms) of the host's bookings that count toward `SlotQuery.limits` (same event type). */
  bookedStarts?: number[];
}

/**
 * At most this many bookings a day / a week per host, counted in the host's timezone (a week runs
 * Monday to Sunday). Null or absent: no limit.
 */
export interface BookingLimits {
  perDay?: number | null;
  perWeek?: number | null;
}

export type SlotMode = 'one_on_one' | 'round_robin' | 'group';

export interface SlotQuery {
  /** epoch ms window for slot STARTS: rangeStart <= start < rangeEnd */
  rangeStart: number;
  rangeEnd: number;
  /** epoch ms, injected (the engine never reads the clock) */
  now: number;
  durationMinutes: number;
  /** 5, 10, 15, 30, 60 (any positive number of minutes works) */
  incrementMinutes: number;
  bufferBeforeMinutes: number;
  bufferAfterMinutes: number;
  minNoticeMinutes: number;
  /** horizon: slot start must be <= now + maxBookingDays * 24h */
  maxBookingDays: number;
  mode: SlotMode;
  limits?: BookingLimits;
}

export interface Slot {
  start: number;
  end: number;
  /** Hosts free for this slot (in the order of the hosts argument). */
  hostIds: string[];
}

export type SlotRejectReason = 'outside_availability' | 'off_increment' | 'within_notice' | 'past_horizon' | 'busy' | 'booking_limit';

export interface SlotCheck {
  offered: boolean;
  reason?: SlotRejectReason;
  /** Hosts free for the slot when offered; [] when not offered. */
  hostIds: string[];
}
