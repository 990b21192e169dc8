import { DateTime } from 'luxon';
import type { Executor } from '../../db/knex';
import type { BookingContext } from './context';
import { LIMIT_COUNTED_STATUSES } from './host-schedules';

/** The event type whose bookings are counted, when it has a day or week limit. */
export function limitedEventType(ctx: BookingContext): string | null {
  const l = ctx.rules.limits;
  return ctx.eventType && l && (l.perDay != null || l.perWeek != null) ? ctx.eventType.id : null;
}

/**
 * Whether each host may take one more booking of the event type starting at `start`, counted in the
 * host's timezone (the slot engine's rule, domain/slots/limits.ts). Called inside the booking
 * transaction while the host's advisory lock is held, so two concurrent bookings cannot both see
 * room for one more.
 */
export async function withinBookingLimits(
  trx: Executor,
  input: { ctx: BookingContext; hosts: Array<{ hostId: string; timezone: string }>; start: number },
): Promise<boolean> {
  const { ctx, hosts, start } = input;
  const eventTypeId = limitedEventType(ctx);
  if (!eventTypeId) return true;
  const { perDay, perWeek } = ctx.rules.limits!;
  for (const { hostId, timezone } of hosts) {
    const local = DateTime.fromMillis(start, { zone: timezone });
    const windows: Array<[DateTime, DateTime, number]> = [];
    if (perDay != null) windows.push([local.startOf('day'), local.startOf('day').plus({ days: 1 }), perDay]);
    if (perWeek != null) windows.push([local.startOf('week'), local.startOf('week').plus({ weeks: 1 }), perWeek]);
    for (const [from, to, max] of windows) {
      const [{ count }] = await trx('meeting_hosts as mh')
        .join('meetings as m', 'm.id', 'mh.meeting_id')
        .where({ 'm.event_type_id': eventTypeId, 'mh.host_user_id': hostId })
        .whereIn('m.status', LIMIT_COUNTED_STATUSES)
        .where('m.start_time', '>=', from.toJSDate())
        .where('m.start_time', '<', to.toJSDate())
        .count<{ count: string }[]>({ count: '*' });
      if (Number(count) >= max) return false;
    }
  }
  return true;
}
