import { DateTime } from 'luxon';
import { computeSlots, type Slot } from '../../domain/slots';
import { validationFailed } from '../../core/errors';
import { busyMargin, narrowHosts, resolveContext, type BookingContext } from './context';
import { routedSubmission } from './routed';
import { limitedEventType } from './booking-limits';
import { loadHostSchedules } from './host-schedules';
import type { ServiceDeps } from '../deps';

const MAX_RANGE_DAYS = 62;

/** Local day range [start of startDate, end of endDate) in `zone` as epoch ms; past dates are refused. */
export function localDayRange(startDate: string, endDate: string, zone: string, now: number, prefix: string): { from: number; to: number } {
  const start = DateTime.fromISO(startDate, { zone });
  const end = DateTime.fromISO(endDate, { zone });
  if (!start.isValid) throw validationFailed([{ path: `${prefix}start_date`, message: 'must be a date YYYY-MM-DD' }]);
  if (!end.isValid) throw validationFailed([{ path: `${prefix}end_date`, message: 'must be a date YYYY-MM-DD' }]);
  const today = DateTime.fromMillis(now, { zone }).startOf('day');
  if (end < start) throw validationFailed([{ path: `${prefix}end_date`, message: 'must not be before start_date' }]);
  if (start < today) throw validationFailed([{ path: `${prefix}start_date`, message: 'is in the past' }]);
  if (end.diff(start, 'days').days >= MAX_RANGE_DAYS)
    throw validationFailed([{ path: `${prefix}end_date`, message: `the range may span at most ${MAX_RANGE_DAYS} days` }]);
  return { from: start.startOf('day').toMillis(), to: end.plus({ days: 1 }).startOf('day').toMillis() };
}

export async function slotsFor(
  deps: Pick<ServiceDeps, 'db'>,
  input: { ctx: BookingContext; from: number; to: number; now: number },
): Promise<Slot[]> {
  const { ctx, from, to, now } = input;
  const hosts = await loadHostSchedules(deps.db, {
    hostIds: ctx.hostIds,
    from,
    to,
    limitedEventTypeId: limitedEventType(ctx),
    busyMarginMs: busyMargin(ctx),
  });
  return computeSlots(hosts, { ...ctx.rules, rangeStart: from, rangeEnd: to, now, mode: ctx.mode });
}

/** Variant A: one date, UTC ISO strings; round-robin adds round_robin and available_host_count. */
export async function availabilityA(
  deps: Pick<ServiceDeps, 'db'>,
  input: {
    userId: string;
    teamId: string;
    date: string;
    duration?: number;
    timezone?: string;
    eventTypeId?: string;
    pageId?: string;
  },
) {
  const { db } = deps;
  const zone = input.timezone ?? 'UTC';
  const now = Date.now();
  const ctx = await resolveContext(db, {
    teamId: input.teamId,
    userId: input.userId,
    eventTypeId: input.eventTypeId,
    pageId: input.pageId,
    duration: input.duration,
  });
  const dateRange = (() => {
    try {
      return localDayRange(input.date, input.date, zone, now, 'query.');
    } catch (err) {
      throw validationFailed([
        { path: 'query.date', message: (err as { details?: Array<{ message: string }> }).details?.[0]?.message ?? 'invalid date' },
      ]);
    }
  })();
  const slots = await slotsFor(deps, { ctx, from: dateRange.from, to: dateRange.to, now });
  return {
    date: input.date,
    duration: ctx.rules.durationMinutes,
    timezone: zone,
    available_slots: slots.map((s) => ({
      start: new Date(s.start).toISOString(),
      end: new Date(s.end).toISOString(),
      ...(ctx.mode === 'round_robin' ? { round_robin: true, available_host_count: s.hostIds.length } : {}),
    })),
  };
}

/** Variant B: a date range, offset-bearing ISO strings in the requested timezone. */
export async function availabilityB(
  deps: Pick<ServiceDeps, 'db'>,
  input: { eventTypeId: string; startDate: string; endDate: string; timezone: string; routingToken?: string },
) {
  const { db } = deps;
  const now = Date.now();
  const { eventTypeId, routingToken } = input;
  const routed = routingToken ? await routedSubmission(db, { token: routingToken, eventTypeId, path: 'query.routing_token' }) : null;
  const ctx = narrowHosts(await resolveContext(db, { eventTypeId }), routed?.routing.host_user_ids);
  const { from, to } = localDayRange(input.startDate, input.endDate, input.timezone, now, 'query.');
  const slots = await slotsFor(deps, { ctx, from, to, now });
  const local = (ms: number) => DateTime.fromMillis(ms, { zone: input.timezone }).toISO({ suppressMilliseconds: true });
  return {
    data: {
      slots: slots.map((s) => ({
        start: local(s.start),
        end: local(s.end),
        ...(ctx.mode === 'round_robin' ? { round_robin: true, available_host_count: s.hostIds.length } : {}),
      })),
      timezone: input.timezone,
      event_type: { id: ctx.eventType!.id, title: ctx.eventType!.title, duration_minutes: ctx.eventType!.duration_minutes },
    },
  };
}
