import { DateTime } from 'luxon';
import type { Executor } from '../../db/knex';
import type { HostSchedule } from '../../domain/slots';
import { externalBusy } from '../calendars/busy-read';

const DAY = 86_400_000;

/**
 * Feed the slot engine from the database: each host's default schedule (rules, timezone), its
 * date overrides around the range, and the busy time in it: active meetings of the host (any
 * meeting it hosts, through meeting_hosts), external calendar events, and the busy time cached from
 * the host's connected calendars (services/calendars/busy-read.ts; never a remote call). Busy
 * intervals are raw; the engine widens them by the event type's buffers.
 */
export async function loadHostSchedules(
  db: Executor,
  hostIds: string[],
  from: number,
  to: number,
  opts: {
    limitedEventTypeId?: string | null;
    excludeMeetingId?: string;
    /** How far outside [from, to) connected calendars' busy time can still matter: duration + buffers (default a day). */
    busyMarginMs?: number;
  } = {},
): Promise<HostSchedule[]> {
  if (hostIds.length === 0) return [];
  const booked = opts.limitedEventTypeId
    ? (await bookedStarts(db, opts.limitedEventTypeId, hostIds, from, to)).filter((b) => b.id !== opts.excludeMeetingId)
    : null;
  const lo = new Date(from - DAY);
  const hi = new Date(to + DAY);
  const [schedules, meetings, events, users, connected] = await Promise.all([
    db('availability_schedules')
      .whereIn('user_id', hostIds)
      .orderBy([{ column: 'is_default', order: 'desc' }, { column: 'created_at' }]),
    db('meeting_hosts as mh')
      .join('meetings as m', 'm.id', 'mh.meeting_id')
      .whereIn('mh.host_user_id', hostIds)
      .where('mh.active', true)
      .where('m.start_time', '<', hi)
      .where('m.end_time', '>', lo)
      .modify((q) => void (opts.excludeMeetingId && q.whereNot('m.id', opts.excludeMeetingId)))
      .select('mh.host_user_id', 'm.start_time', 'm.end_time'),
    db('calendar_events')
      .whereIn('host_user_id', hostIds)
      .where({ source: 'external' })
      .where('start_time', '<', hi)
      .where('end_time', '>', lo)
      .select('host_user_id', 'start_time', 'end_time'),
    db('users').whereIn('id', hostIds).select('id', 'timezone'),
    externalBusy(db, { hostIds, from: new Date(from - (opts.busyMarginMs ?? DAY)), to: new Date(to + (opts.busyMarginMs ?? DAY)) }),
  ]);
  const scheduleOf = new Map<string, { id: string; timezone: string; rules: HostSchedule['rules'] }>();
  for (const s of schedules) if (!scheduleOf.has(s.user_id)) scheduleOf.set(s.user_id, s);
  const scheduleIds = [...scheduleOf.values()].map((s) => s.id);
  const loDate = DateTime.fromMillis(from - 2 * DAY, { zone: 'utc' }).toISODate();
  const hiDate = DateTime.fromMillis(to + 2 * DAY, { zone: 'utc' }).toISODate();
  const overrides = scheduleIds.length
    ? await db('availability_date_overrides').whereIn('schedule_id', scheduleIds).whereBetween('date', [loDate, hiDate])
    : [];
  // One pass over every busy row (a host with connected calendars may have hundreds).
  const busyOf = new Map<string, Array<{ start: number; end: number }>>(hostIds.map((h) => [h, [...(connected.get(h) ?? [])]]));
  for (const list of [meetings, events] as Array<Array<{ host_user_id: string; start_time: Date; end_time: Date }>>) {
    for (const b of list)
      busyOf.get(b.host_user_id)?.push({ start: new Date(b.start_time).getTime(), end: new Date(b.end_time).getTime() });
  }
  return hostIds.map((hostId) => {
    const s = scheduleOf.get(hostId);
    const busy = busyOf.get(hostId) ?? [];
    return {
      hostId,
      timezone: s?.timezone ?? users.find((u: { id: string }) => u.id === hostId)?.timezone ?? 'UTC',
      rules: s?.rules ?? [],
      overrides: s
        ? overrides
            .filter((o: { schedule_id: string }) => o.schedule_id === s.id)
            .map((o: { date: string; is_unavailable: boolean; start: string | null; end: string | null }) => ({
              date: o.date,
              is_unavailable: o.is_unavailable,
              start: o.start,
              end: o.end,
            }))
        : [],
      busy,
      ...(booked ? { bookedStarts: booked.filter((b) => b.host_user_id === hostId).map((b) => new Date(b.start_time).getTime()) } : {}),
    };
  });
}

/** Meetings that count toward an event type's booking limits (a week and a day of margin around the range covers any local week). */
export const LIMIT_COUNTED_STATUSES = ['pending_confirmation', 'scheduled', 'completed', 'no_show'];

function bookedStarts(db: Executor, eventTypeId: string, hostIds: string[], from: number, to: number) {
  return db('meeting_hosts as mh')
    .join('meetings as m', 'm.id', 'mh.meeting_id')
    .where('m.event_type_id', eventTypeId)
    .whereIn('mh.host_user_id', hostIds)
    .whereIn('m.status', LIMIT_COUNTED_STATUSES)
    .where('m.start_time', '>=', new Date(from - 8 * DAY))
    .where('m.start_time', '<', new Date(to + 8 * DAY))
    .select<{ id: string; host_user_id: string; start_time: Date }[]>('m.id', 'mh.host_user_id', 'm.start_time');
}
