import { DateTime } from 'luxon';

/** Days a step may go out (0 = Sunday … 6 = Saturday) and the local hours, in the contact's timezone. */
export interface SendingWindow {
  days: number[];
  /** HH:MM, inclusive. */
  start: string;
  /** HH:MM, exclusive; later than start. */
  end: string;
}

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;

export function isValidHhmm(s: string): boolean {
  return HHMM.test(s);
}

function minutesOf(hhmm: string): number {
  const [, h, m] = HHMM.exec(hhmm)!;
  return Number(h) * 60 + Number(m);
}

/**
 * The earliest instant at or after `now` that falls inside the window, in `zone` (an IANA name;
 * an unknown zone falls back to UTC). Without a window, `now` itself. DST gaps are handled by
 * luxon: a local start time that does not exist moves forward to the next valid instant.
 */
export function nextSendTime(now: Date, window: SendingWindow | null | undefined, zone: string | null | undefined): Date {
  if (!window || window.days.length === 0) return now;
  let local = DateTime.fromJSDate(now, { zone: zone || 'UTC' });
  if (!local.isValid) local = DateTime.fromJSDate(now, { zone: 'UTC' });
  const start = minutesOf(window.start);
  const end = minutesOf(window.end);
  for (let i = 0; i < 8; i++) {
    const day = local.plus({ days: i }).startOf('day');
    const weekday = day.weekday % 7; // luxon: 1 = Monday … 7 = Sunday
    if (!window.days.includes(weekday)) continue;
    const open = day.set({ hour: Math.floor(start / 60), minute: start % 60 });
    const close = day.set({ hour: Math.floor(end / 60), minute: end % 60 });
    if (i === 0) {
      if (local < open) return open.toJSDate();
      if (local < close) return now;
      continue;
    }
    return open.toJSDate();
  }
  return now; // unreachable with at least one day
}
