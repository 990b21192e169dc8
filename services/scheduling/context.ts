import type { Executor } from '../../db/knex';
import type { SlotMode, SlotQuery } from '../../domain/slots';
import { notFound } from '../../core/errors';
import { DEFAULTS } from '../../domain/slots/defaults';
import type { EventTypeRow, PageRow } from './present';

/** The row resolveContext reads: tables as JSON (timestamps as text until withDates). */
interface ContextData {
  et: EventTypeRow | null;
  page: PageRow | null;
  hosts: string[];
  user_id: string | null;
}

/** Timestamps of a row that came as JSON, as the Dates pg gives for the same columns. */
function withDates<T extends object>(row: T, columns: Array<keyof T>): T {
  const out = { ...row };
  for (const c of columns) {
    const v = out[c] as unknown;
    if (typeof v === 'string') (out as Record<keyof T, unknown>)[c] = new Date(v);
  }
  return out;
}

export interface BookingContext {
  teamId: string;
  page: PageRow | null;
  eventType: EventTypeRow | null;
  mode: SlotMode;
  hostIds: string[];
  rules: Omit<SlotQuery, 'rangeStart' | 'rangeEnd' | 'now' | 'mode'>;
}

/**
 * Resolve who hosts and which rules apply for a public lookup or booking. Everything that does
 * not exist, belongs to another team, is inactive or sits on an unpublished page is 404
 * (DESIGN.md "Fixed details": public endpoints need a published page, or none, and an active event type).
 */
export async function resolveContext(
  db: Executor,
  input: { teamId?: string; userId?: string; eventTypeId?: string; pageId?: string; duration?: number },
): Promise<BookingContext> {
  // One statement: the event type, its page (or the page asked for), the page's active hosts in
  // order and the user check come back as one row; the checks below decide in the same order as before.
  const pageExpr = input.eventTypeId ? '(SELECT scheduling_page_id FROM event_types WHERE id = ?::uuid)' : '?::uuid';
  const pageBinding = input.eventTypeId ?? input.pageId ?? null;
  const checkUser = Boolean(input.userId && input.teamId);
  const { rows } = await db.raw<{ rows: [ContextData] }>(
    `SELECT
       (SELECT to_jsonb(e) FROM event_types e WHERE e.id = ?::uuid) AS et,
       (SELECT to_jsonb(p) FROM scheduling_pages p WHERE p.id = ${pageExpr}) AS page,
       (SELECT coalesce(json_agg(h.user_id ORDER BY h.position, h.user_id), '[]')
          FROM scheduling_page_hosts h JOIN users u ON u.id = h.user_id
          WHERE h.page_id = ${pageExpr} AND u.removed_at IS NULL) AS hosts,
       (SELECT id FROM users WHERE ?::boolean AND id = ?::uuid AND team_id = ?::uuid AND removed_at IS NULL) AS user_id`,
    [input.eventTypeId ?? null, pageBinding, pageBinding, checkUser, input.userId ?? null, input.teamId ?? null],
  );
  const { et: etRow, page: pageRow, hosts: hostRows } = rows[0];
  const earlyUser = rows[0].user_id ? { id: rows[0].user_id } : null;
  const userOf = (teamId: string) => db('users').where({ id: input.userId!, team_id: teamId }).whereNull('removed_at').first('id');
  const eventType: EventTypeRow | null = etRow ? withDates(etRow, ['created_at', 'updated_at']) : null;
  let page: PageRow | null = pageRow ? withDates(pageRow, ['published_at', 'created_at', 'updated_at']) : null;
  if (input.eventTypeId) {
    if (!eventType || !eventType.is_active || (input.teamId && eventType.team_id !== input.teamId)) throw notFound('Event type');
    if (input.pageId && input.pageId !== eventType.scheduling_page_id) throw notFound('Scheduling page');
  } else if (input.pageId) {
    if (!page || (input.teamId && page.team_id !== input.teamId)) throw notFound('Scheduling page');
  } else page = null;
  if (page && page.status !== 'published') throw notFound(eventType ? 'Event type' : 'Scheduling page');
  const teamId = input.teamId ?? page?.team_id;
  if (!teamId) throw notFound('Team');

  if (input.userId) {
    const user = input.teamId ? earlyUser : await userOf(teamId);
    if (!user) throw notFound('User');
  }
  const mode: SlotMode = (page?.page_type as SlotMode | undefined) ?? 'one_on_one';
  const pageHosts = page ? hostRows : [];
  let hostIds: string[];
  if (mode === 'one_on_one') {
    const host = input.userId ?? pageHosts[0];
    if (!host || (pageHosts.length > 0 && !pageHosts.includes(host))) throw notFound('Host');
    hostIds = [host];
  } else {
    hostIds = pageHosts;
    if (hostIds.length === 0) throw notFound('Host');
  }
  return {
    teamId,
    page,
    eventType,
    mode,
    hostIds,
    rules: {
      durationMinutes: input.duration ?? eventType?.duration_minutes ?? DEFAULTS.duration,
      incrementMinutes: eventType?.start_time_increment ?? DEFAULTS.increment,
      bufferBeforeMinutes: eventType?.buffer_time_before ?? DEFAULTS.bufferBefore,
      bufferAfterMinutes: eventType?.buffer_time_after ?? DEFAULTS.bufferAfter,
      minNoticeMinutes: eventType?.min_notice_minutes ?? DEFAULTS.minNotice,
      maxBookingDays: eventType?.max_booking_days ?? DEFAULTS.maxDays,
      limits: { perDay: eventType?.max_bookings_per_day ?? null, perWeek: eventType?.max_bookings_per_week ?? null },
    },
  };
}

/** How far outside a range busy time can still block a slot in it: the meeting plus both buffers. */
export const busyMargin = (ctx: BookingContext) =>
  (ctx.rules.durationMinutes + ctx.rules.bufferBeforeMinutes + ctx.rules.bufferAfterMinutes) * 60_000;

/**
 * Only some of the page's hosts (a routed submission's hosts, docs/forms.md "Routing"): round robin
 * and group pages keep the hosts of the subset, in the page's order; a one-on-one page keeps its
 * host when it is in the subset. None left is a 404, like a page without hosts.
 */
export function narrowHosts(ctx: BookingContext, subset: string[] | null | undefined): BookingContext {
  if (!subset) return ctx;
  const hostIds = ctx.hostIds.filter((h) => subset.includes(h));
  if (hostIds.length === 0) throw notFound('Host');
  return { ...ctx, hostIds };
}
