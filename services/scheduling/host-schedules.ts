import { DateTime } from 'luxon';
import type { Executor } from '../../db/knex';
import type { HostSchedule } from '../../domain/slots';
import { BUSY_VERSION_SQL, busyCache, overlappingIn } from '../calendars/busy-cache';

const DAY = 86_400_000;

/** Epoch milliseconds of a timestamptz column, as the JS Date of it would give. */
const ms = (col: string) => `floor(extract(epoch FROM ${col}) * 1000)::bigint`;

/**
 * Everything loadHostSchedules needs, as one row of JSON arrays: each host's default schedule (the
 * first by is_default desc, created_at, as before), its date overrides in [loDate, hiDate], active
 * meetings of the host (through meeting_hosts) and external calendar events overlapping (lo, hi),
 * the users' zones, and the connected calendars' merged busy time: each host's row version, with
 * its text only when this process does not hold that version already (services/calendars/busy-cache.ts).
 */
const SCHEDULES_SQL = `
WITH s AS (
  SELECT DISTINCT ON (user_id) user_id, id, timezone, rules
  FROM availability_schedules WHERE user_id = ANY(?::uuid[])
  ORDER BY user_id, is_default DESC, created_at
)
SELECT
  (SELECT coalesce(json_agg(json_build_array(s.user_id, s.timezone, s.rules)), '[]') FROM s) AS schedules,
  (SELECT coalesce(json_agg(json_build_array(s.user_id, o.date, o.is_unavailable, o.start, o."end")), '[]')
     FROM availability_date_overrides o JOIN s ON s.id = o.schedule_id
     WHERE o.date BETWEEN ?::date AND ?::date) AS overrides,
  (SELECT coalesce(json_agg(json_build_array(mh.host_user_id, ${ms('m.start_time')}, ${ms('m.end_time')})), '[]')
     FROM meeting_hosts mh JOIN meetings m ON m.id = mh.meeting_id
     WHERE mh.host_user_id = ANY(?::uuid[]) AND mh.active AND m.start_time < ? AND m.end_time > ?
       AND (?::uuid IS NULL OR m.id <> ?::uuid)) AS meetings,
  (SELECT coalesce(json_agg(json_build_array(host_user_id, ${ms('start_time')}, ${ms('end_time')})), '[]')
     FROM calendar_events
     WHERE host_user_id = ANY(?::uuid[]) AND source = 'external' AND start_time < ? AND end_time > ?) AS events,
  (SELECT coalesce(json_agg(json_build_array(id, timezone)), '[]') FROM users WHERE id = ANY(?::uuid[])) AS users,
  (SELECT coalesce(json_agg(json_build_array(user_id, ${BUSY_VERSION_SQL},
            CASE WHEN user_id::text || ' ' || ${BUSY_VERSION_SQL} = ANY(?::text[]) THEN NULL ELSE busy_ms END)), '[]')
     FROM calendar_user_busy WHERE user_id = ANY(?::uuid[]) AND busy_ms <> '') AS connected`;

interface ScheduleData {
  schedules: Array<[string, string, HostSchedule['rules']]>;
  overrides: Array<[string, string, boolean, string | null, string | null]>;
  meetings: Array<[string, number, number]>;
  events: Array<[string, number, number]>;
  users: Array<[string, string]>;
  /** user id, row version, busy text (null: the version this process holds). */
  connected: Array<[string, string, string | null]>;
}

/**
 * Feed the slot engine from the database: each host's default schedule (rules, timezone), its
 * date overrides around the range, and the busy time in it: active meetings of the host (any
 * meeting it hosts, through meeting_hosts), external calendar events, and the busy time cached from
 * the host's connected calendars (services/calendars/busy-read.ts; never a remote call). Busy
 * intervals are raw; the engine widens them by the event type's buffers.
 */
export interface HostSchedulesInput {
  hostIds: string[];
  from: number;
  to: number;
  limitedEventTypeId?: string | null;
  excludeMeetingId?: string;
  /** How far outside [from, to) connected calendars' busy time can still matter: duration + buffers (default a day). */
  busyMarginMs?: number;
}

export async function loadHostSchedules(db: Executor, input: HostSchedulesInput): Promise<HostSchedule[]> {
  const { hostIds, from, to, ...opts } = input;
  if (hostIds.length === 0) return [];
  const booked = opts.limitedEventTypeId
    ? (await bookedStarts(db, opts.limitedEventTypeId, hostIds, from, to)).filter((b) => b.id !== opts.excludeMeetingId)
    : null;
  const lo = new Date(from - DAY);
  const hi = new Date(to + DAY);
  const loDate = DateTime.fromMillis(from - 2 * DAY, { zone: 'utc' }).toISODate();
  const hiDate = DateTime.fromMillis(to + 2 * DAY, { zone: 'utc' }).toISODate();
  // One statement (one round trip, one plan) for what was six: the schedules, their overrides, the
  // meetings and external events in the range, the users' zones and the connected calendars' busy text.
  const held = busyCache.held(hostIds);
  const { rows } = await db.raw<{ rows: [ScheduleData] }>(SCHEDULES_SQL, [
    hostIds,
    loDate,
    hiDate,
    hostIds,
    hi,
    lo,
    opts.excludeMeetingId ?? null,
    opts.excludeMeetingId ?? null,
    hostIds,
    hi,
    lo,
    hostIds,
    [...held].map(([userId, h]) => `${userId} ${h.version}`),
    hostIds,
  ]);
  const data = rows[0];
  const scheduleOf = new Map<string, { timezone: string; rules: HostSchedule['rules'] }>();
  for (const [userId, timezone, rules] of data.schedules) scheduleOf.set(userId, { timezone, rules });
  const zoneOf = new Map(data.users);
  const busyLo = from - (opts.busyMarginMs ?? DAY);
  const busyHi = to + (opts.busyMarginMs ?? DAY);
  // One pass over every busy row (a host with connected calendars may have hundreds).
  const busyOf = new Map<string, Array<{ start: number; end: number }>>(hostIds.map((h) => [h, []]));
  for (const [userId, version, text] of data.connected) {
    const ms = text === null ? held.get(userId)?.ms : busyCache.put(userId, version, text);
    if (ms) busyOf.get(userId)?.push(...overlappingIn(ms, busyLo, busyHi));
  }
  for (const list of [data.meetings, data.events]) for (const [hostId, start, end] of list) busyOf.get(hostId)?.push({ start, end });
  const overridesOf = new Map<string, HostSchedule['overrides']>();
  for (const [userId, date, isUnavailable, start, end] of data.overrides) {
    const list = overridesOf.get(userId) ?? [];
    list.push({ date, is_unavailable: isUnavailable, start, end });
    overridesOf.set(userId, list);
  }
  return hostIds.map((hostId) => {
    const s = scheduleOf.get(hostId);
    return {
      hostId,
      timezone: s?.timezone ?? zoneOf.get(hostId) ?? 'UTC',
      rules: s?.rules ?? [],
      overrides: (s && overridesOf.get(hostId)) || [],
      busy: busyOf.get(hostId) ?? [],
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
