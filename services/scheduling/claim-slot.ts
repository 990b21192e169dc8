import { uuid } from '../../core/crypto';
import type { Executor } from '../../db/knex';
import type { MeetingsRow } from '../../db/tables';
import { isSlotOffered, type SlotRejectReason } from '../../domain/slots';
import { transactionWithOutbox, type Enqueue } from '../../temporal/outbox';
import type { ServiceDeps } from '../deps';
import { ApiError, conflict, validationFailed } from '../../core/errors';
import { busyMargin, narrowHosts, resolveContext, type BookingContext } from './context';
import { limitedEventType, withinBookingLimits } from './booking-limits';
import { loadHostSchedules } from './host-schedules';
import { hasExternalBusy } from '../calendars/busy-read';
import type { MeetingRow } from '../meetings/row';

const MINUTE = 60_000;
const EXCLUSION_VIOLATION = '23P01';

/** Who is booked, and when: what the slot engine and the locks need. */
export interface SlotRequest {
  teamId?: string;
  userId?: string;
  eventTypeId?: string;
  pageId?: string;
  start: number;
  end: number;
  /** Variant B: the end must be start + the event type's duration. */
  exactDuration?: boolean;
  /** Only these of the page's hosts (a routed submission's, context.ts narrowHosts). */
  hostSubset?: string[] | null;
  guests: string[];
}

/** The meeting's own columns, written by the caller (title, attendee, status, link…). */
export type MeetingColumns = Partial<MeetingsRow>;

export interface ClaimSlotInput<T> {
  request: SlotRequest;
  /**
   * The meeting this claim replaces (a move): its own time does not block, its host goes first
   * when free at the new time, and the host lock is always taken.
   */
  replacing?: { id: string; host_user_id: string };
  /** The meeting's columns, given the resolved context (after the slot check). */
  columns: (ctx: BookingContext) => MeetingColumns;
  /** First in each try's transaction, before any host lock (a move locks and releases its old meeting). */
  first?: (trx: Executor) => Promise<void>;
  /** Under the host locks, before the insert: columns known only in the transaction (the attendee's contact). */
  underLock?: (trx: Executor, ctx: BookingContext) => Promise<MeetingColumns>;
  /** After the insert, in the same transaction: the caller's own rows and workflow start; its answer is claimSlot's. */
  then: (trx: Executor, enqueue: Enqueue, claimed: { meeting: MeetingRow; ctx: BookingContext }) => Promise<T>;
}

const REASONS: Record<SlotRejectReason, string> = {
  outside_availability: "The requested time is outside the host's availability",
  off_increment: "The requested start is not on the event type's start time increment",
  within_notice: 'The requested start is within the minimum notice period',
  past_horizon: 'The requested start is beyond the booking horizon (max booking days)',
  busy: 'This time slot is already taken',
  booking_limit: 'The host has reached the booking limit of this event type for that day or week',
};

export const slotUnavailable = () => conflict(REASONS.busy, 'slot_unavailable');

function checkRequest(req: SlotRequest, ctx: BookingContext, now: number): void {
  const minutes = (req.end - req.start) / MINUTE;
  if (req.end <= req.start) throw validationFailed([{ path: 'body.end', message: 'must be after start' }]);
  if (!Number.isInteger(minutes) || minutes < 5 || minutes > 720) {
    throw validationFailed([{ path: 'body.end', message: 'the meeting must last a whole number of minutes between 5 and 720' }]);
  }
  if (req.exactDuration && ctx.eventType && minutes !== ctx.eventType.duration_minutes) {
    throw validationFailed([
      { path: 'body.end_time', message: `must be start_time + ${ctx.eventType.duration_minutes} minutes (the event type's duration)` },
    ]);
  }
  if (req.guests.length > 0 && ctx.eventType && !ctx.eventType.guests_allowed) {
    throw validationFailed([{ path: 'body.guests', message: 'this event type does not allow guests' }]);
  }
  if (req.start <= now) throw new ApiError(400, 'slot_not_offered', 'The requested start is in the past');
}

/** Round-robin: the free host with the fewest meetings in the last 30 days and ahead goes first. */
async function orderByLoad(db: Executor, hostIds: string[], now: number): Promise<string[]> {
  const rows = await db('meetings')
    .whereIn('host_user_id', hostIds)
    .whereIn('status', ['pending_confirmation', 'scheduled', 'completed'])
    .where('start_time', '>', new Date(now - 30 * 24 * 60 * MINUTE))
    .groupBy('host_user_id')
    .select('host_user_id')
    .count<{ host_user_id: string; count: number }[]>({ count: '*' });
  const load = new Map(rows.map((r) => [r.host_user_id, Number(r.count)]));
  return [...hostIds].sort((a, b) => (load.get(a) ?? 0) - (load.get(b) ?? 0) || hostIds.indexOf(a) - hostIds.indexOf(b));
}

/**
 * Claim a slot: the part a new booking (booking.ts) and a move (reschedule.ts) share. The slot
 * engine decides whether the time is offered at all (400 slot_not_offered, or 409 when busy); the
 * exclusion constraints decide races (23P01 → next round-robin host, or 409). One transaction a
 * try: `first`, the host locks, `underLock`, the limits and calendar-busy checks, the meeting and
 * its host rows in one statement, then `then` (the caller's rows and outbox row).
 */
export async function claimSlot<T>(deps: ServiceDeps, input: ClaimSlotInput<T>): Promise<T> {
  const { db } = deps;
  const { request: req, replacing } = input;
  const now = Date.now();
  const resolved = await resolveContext(db, {
    teamId: req.teamId,
    userId: req.userId,
    eventTypeId: req.eventTypeId,
    pageId: req.pageId,
    duration: Math.round((req.end - req.start) / MINUTE),
  });
  const ctx = narrowHosts(resolved, req.hostSubset);
  checkRequest(req, ctx, now);
  const hosts = await loadHostSchedules(db, {
    hostIds: ctx.hostIds,
    from: req.start,
    to: req.end,
    limitedEventTypeId: limitedEventType(ctx),
    excludeMeetingId: replacing?.id,
    busyMarginMs: busyMargin(ctx),
  });
  const check = isSlotOffered(hosts, { ...ctx.rules, rangeStart: req.start, rangeEnd: req.start + 1, now, mode: ctx.mode }, req.start);
  if (!check.offered) {
    if (check.reason === 'busy') throw slotUnavailable();
    if (check.reason === 'booking_limit') throw conflict(REASONS.booking_limit, 'slot_unavailable');
    throw new ApiError(400, 'slot_not_offered', REASONS[check.reason ?? 'outside_availability']);
  }
  let candidates = ctx.mode === 'round_robin' ? await orderByLoad(db, check.hostIds, now) : [ctx.hostIds[0]];
  // a moved meeting stays with its host when that host is free at the new time
  if (replacing && candidates.includes(replacing.host_user_id))
    candidates = [replacing.host_user_id, ...candidates.filter((h) => h !== replacing.host_user_id)];
  const groupHosts = ctx.mode === 'group' ? ctx.hostIds : null;
  const et = ctx.eventType;
  const meetingId = uuid();
  const columns = input.columns(ctx);

  const zoneOf = new Map(hosts.map((h) => [h.hostId, h.timezone]));
  // The busy time cached from connected calendars, widened by the buffers the way the slot engine
  // widens it, is checked again under the host's lock: a sync that landed since the slot check counts.
  const widen = (ctx.rules.bufferBeforeMinutes + ctx.rules.bufferAfterMinutes) * MINUTE;
  const busyFrom = new Date(req.start - widen);
  const busyTo = new Date(req.end + widen);
  // A savepoint only where a failed insert is followed by another try (round robin's next host):
  // with one candidate, a conflict ends the transaction anyway (2 statements fewer per booking).
  const insertFor = (trx: Executor, hostId: string, extra: MeetingColumns, savepoint: boolean) =>
    savepoint ? trx.transaction((sp) => insertMeeting(sp, hostId, extra)) : insertMeeting(trx, hostId, extra);
  const insertMeeting = async (sp: Executor, hostId: string, extra: MeetingColumns): Promise<MeetingRow> => {
    const counted = (groupHosts ?? [hostId]).map((h) => ({ hostId: h, timezone: zoneOf.get(h) ?? 'UTC' }));
    if (!(await withinBookingLimits(sp, { ctx, hosts: counted, start: req.start }))) throw new LimitReached();
    if (await hasExternalBusy(sp, { hostIds: groupHosts ?? [hostId], from: busyFrom, to: busyTo })) throw new BusyInCalendar();
    const insert = sp('meetings')
      .insert({
        contact_id: null,
        ...extra,
        ...columns,
        id: meetingId,
        team_id: ctx.teamId,
        event_type_id: et?.id ?? null,
        scheduling_page_id: ctx.page?.id ?? null,
        host_user_id: hostId,
        start_time: new Date(req.start),
        end_time: new Date(req.end),
        block_start: new Date(req.start - ctx.rules.bufferBeforeMinutes * MINUTE),
        block_end: new Date(req.end + ctx.rules.bufferAfterMinutes * MINUTE),
      })
      .returning('*')
      .toSQL();
    // The meeting and its host rows (where the exclusion constraint decides races) in one statement.
    const { rows } = await sp.raw<{ rows: MeetingRow[] }>(
      `WITH m AS (${insert.sql}), h AS (
         INSERT INTO meeting_hosts (meeting_id, host_user_id, team_id, block_start, block_end, active)
         SELECT m.id, u.host, m.team_id, m.block_start, m.block_end, true FROM m, unnest(?::uuid[]) AS u(host)
       ) SELECT * FROM m`,
      [...insert.bindings, groupHosts ?? [hostId]] as never,
    );
    return rows[0];
  };

  /**
   * One attempt in one transaction. `block`: wait for that single host's lock (holding no other
   * lock, so the wait cannot be part of a deadlock). Otherwise take each candidate's lock only if
   * it is free and skip the busy ones, so concurrent round-robin bookings spread over the hosts
   * instead of queueing behind each other. The exclusion constraint still decides every race; the
   * per-host lock keeps two inserts from waiting on each other's uncommitted rows (a deadlock).
   */
  // One host and no booking limits: the exclusion constraint alone decides the race (two inserts of
  // one host can only wait on each other, never deadlock), so bookings of different slots of the
  // same host run side by side instead of queueing behind its lock. Limits are counted under the lock.
  const lockFree = ctx.mode === 'one_on_one' && !replacing && limitedEventType(ctx) === null;
  const attempt = (block: string | null) =>
    transactionWithOutbox(db, deps.outbox, async (trx, enqueue) => {
      if (input.first) await input.first(trx);
      if (groupHosts) {
        for (const h of [...groupHosts].sort()) await trx.raw('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [`booking:${h}`]);
      } else if (block) {
        await trx.raw('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [`booking:${block}`]);
      }
      const extra = input.underLock ? await input.underLock(trx, ctx) : {};
      let meeting: MeetingRow | undefined;
      const busy: string[] = [];
      const tries = block ? [block] : candidates;
      for (const hostId of tries) {
        if (!groupHosts && !block && !lockFree) {
          const got = await trx.raw('SELECT pg_try_advisory_xact_lock(hashtextextended(?, 0)) AS ok', [`booking:${hostId}`]);
          if (!got.rows[0].ok) {
            busy.push(hostId);
            continue;
          }
        }
        try {
          meeting = await insertFor(trx, hostId, extra, tries.length > 1);
          break;
        } catch (err) {
          if (!(err instanceof LimitReached) && !(err instanceof BusyInCalendar) && (err as { code?: string }).code !== EXCLUSION_VIOLATION)
            throw err;
        }
      }
      if (!meeting) throw new NoFreeHost(busy);
      return input.then(trx, enqueue, { meeting, ctx });
    });

  let waitFor: string[];
  try {
    return await attempt(null);
  } catch (err) {
    if (!(err instanceof NoFreeHost)) throw err;
    waitFor = err.busyHosts;
  }
  // Every free candidate was taken; wait, one host at a time, for those another booking held.
  for (const hostId of waitFor) {
    try {
      return await attempt(hostId);
    } catch (err) {
      if (!(err instanceof NoFreeHost)) throw err;
    }
  }
  throw slotUnavailable();
}

/** The host already has as many bookings of the event type that day or week as the limit allows. */
class LimitReached extends Error {
  constructor() {
    super('booking limit reached');
  }
}

/** The host (or a group host) is busy in a connected calendar at that time (services/calendars/busy-read.ts). */
class BusyInCalendar extends Error {
  constructor() {
    super('busy in a connected calendar');
  }
}

/** No candidate host could take the slot; `busyHosts` were locked by a concurrent booking. */
class NoFreeHost extends Error {
  constructor(readonly busyHosts: string[]) {
    super('no free host');
  }
}
