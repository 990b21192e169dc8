import type { BookingLimits, HostSchedule } from './types';
import { DAY, toLocal, zoneOffsets } from './tz';
import { weekdayOfDay } from './working';

/** Local day number (days since the epoch on the host's wall clock) of an instant. */
function localDay(tz: string, t: number): number {
  return Math.floor(toLocal(zoneOffsets(tz).pieces(t - DAY, t + DAY), t) / DAY);
}

/** The local day number of the Monday that starts the week of local day `d`. */
export const weekOfDay = (d: number): number => d - ((weekdayOfDay(d) + 6) % 7);

/**
 * Counts a host's bookings per local day and per local week, and answers whether one more booking
 * starting at `t` would stay within the limits. Pure: the bookings come in `host.bookedStarts`.
 */
export class LimitCounter {
  private readonly perDay = new Map<number, number>();
  private readonly perWeek = new Map<number, number>();

  constructor(
    private readonly host: HostSchedule,
    private readonly limits: BookingLimits,
  ) {
    for (const s of host.bookedStarts ?? []) {
      const d = localDay(host.timezone, s);
      this.perDay.set(d, (this.perDay.get(d) ?? 0) + 1);
      this.perWeek.set(weekOfDay(d), (this.perWeek.get(weekOfDay(d)) ?? 0) + 1);
    }
  }

  static active(limits: BookingLimits | undefined): limits is BookingLimits {
    return !!limits && (limits.perDay != null || limits.perWeek != null);
  }

  /** Whether a booking starting at `t` (epoch ms) is still allowed. */
  allows(t: number, dayOfT: number = localDay(this.host.timezone, t)): boolean {
    const { perDay, perWeek } = this.limits;
    if (perDay != null && (this.perDay.get(dayOfT) ?? 0) >= perDay) return false;
    if (perWeek != null && (this.perWeek.get(weekOfDay(dayOfT)) ?? 0) >= perWeek) return false;
    return true;
  }
}

/** Local day of `t` given offset pieces already computed for a range around it (the engine's hot path). */
export const localDayWith = (pieces: Parameters<typeof toLocal>[0], t: number): number => Math.floor(toLocal(pieces, t) / DAY);
