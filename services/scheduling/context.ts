import type { Executor } from '../../db/knex';
import type { SlotMode, SlotQuery } from '../../domain/slots';
import { notFound } from '../../core/errors';
import { activePageHostIds } from './pages';
import type { EventTypeRow, PageRow } from './present';

/** Spec defaults for a lookup without an event type (interface-spec "Limits"). */
export const DEFAULTS = { duration: 30, increment: 15, bufferBefore: 0, bufferAfter: 0, minNotice: 60, maxDays: 14 };

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
  // One round trip: the event type, its page (or the page asked for), the page's hosts and the
  // user check go out together; the checks below decide in the same order as before.
  const pageId = input.eventTypeId ? db('event_types').select('scheduling_page_id').where({ id: input.eventTypeId }) : input.pageId;
  const userOf = (teamId: string) =>
    input.userId ? db('users').where({ id: input.userId, team_id: teamId }).whereNull('removed_at').first('id') : Promise.resolve(null);
  const [etRow, pageRow, hostRows, earlyUser] = await Promise.all([
    input.eventTypeId ? db('event_types').where({ id: input.eventTypeId }).first() : Promise.resolve(undefined),
    pageId
      ? db('scheduling_pages')
          .whereIn('id', typeof pageId === 'string' ? [pageId] : pageId)
          .first()
      : Promise.resolve(undefined),
    pageId ? activePageHostIds(db, pageId) : Promise.resolve([]),
    input.teamId ? userOf(input.teamId) : Promise.resolve(null),
  ]);
  const eventType: EventTypeRow | null = etRow ?? null;
  let page: PageRow | null = pageRow ?? null;
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
