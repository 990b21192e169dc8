import type { Executor } from '../../db/knex';
import { DEFAULTS } from '../../domain/slots/defaults';

const DAY = 86_400_000;
/** The longest window expanded, whatever an event type's horizon says. */
export const MAX_HORIZON_DAYS = 730;

/**
 * The window of busy time a connection keeps: from a day ago to the longest booking horizon of
 * the event types the user hosts (at least the 14 days of a lookup without an event type), plus
 * two days, so a sync expands again about once a day as the window moves (docs/calendars.md).
 */
export async function syncWindow(
  db: Executor,
  input: { userId: string; now: number },
): Promise<{ from: number; to: number; horizonEnd: number }> {
  const { userId, now } = input;
  const row = await db('event_types as et')
    .join('scheduling_page_hosts as h', 'h.page_id', 'et.scheduling_page_id')
    .where({ 'h.user_id': userId, 'et.is_active': true })
    .max<{ days: number | null }>({ days: 'et.max_booking_days' })
    .first();
  const days = Math.min(MAX_HORIZON_DAYS, Math.max(DEFAULTS.maxDays, Number(row?.days ?? 0)));
  return { from: now - DAY, to: now + (days + 2) * DAY, horizonEnd: now + (days + 1) * DAY };
}

/** The host's zone for all-day and floating times: the default schedule's, else the user's. */
export async function hostZoneAndEmails(db: Executor, userId: string): Promise<{ zone: string; emails: string[] }> {
  const [schedule, user] = await Promise.all([
    db('availability_schedules')
      .where({ user_id: userId })
      .orderBy([{ column: 'is_default', order: 'desc' }, { column: 'created_at' }])
      .first('timezone'),
    db('users').where({ id: userId }).first('email', 'timezone'),
  ]);
  return { zone: schedule?.timezone ?? user?.timezone ?? 'UTC', emails: user?.email ? [String(user.email).toLowerCase()] : [] };
}

/** CALENDAR_SYNC_INTERVAL ("5m", "90s", "300000ms", "1h", a bare number is ms) in ms; at least 10 s. */
export function syncIntervalMs(text: string): number {
  const m = /^(\d+)\s*(ms|s|m|h)?$/.exec(text.trim());
  if (!m) return 5 * 60_000;
  const n = Number(m[1]);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(m[2] ?? 'ms') as 'ms' | 's' | 'm' | 'h'];
  return Math.max(10_000, n * unit);
}
