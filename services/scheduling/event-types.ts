import type { Db, Executor } from '../../db/knex';
import { notFound, validationFailed } from '../../core/errors';
import { listEnvelope, type Page } from '../pagination';
import { getPageRow } from './pages';
import { presentEventType, type EventTypeRow } from './present';
import { chooseSlug, mapUniqueViolation } from './slug';

export const LOCATION_TYPES = ['video_provider_1', 'video_provider_2', 'video_provider_3', 'phone', 'in_person', 'custom'] as const;
export const INCREMENTS = [5, 10, 15, 30, 60] as const;

export interface EventTypeInput {
  title?: string;
  slug?: string;
  description?: string;
  duration_minutes?: number;
  location_type?: (typeof LOCATION_TYPES)[number];
  location?: string | null;
  is_active?: boolean;
  color?: string;
  position?: number;
  buffer_time_before?: number;
  buffer_time_after?: number;
  min_notice_minutes?: number;
  max_booking_days?: number;
  max_bookings_per_day?: number | null;
  max_bookings_per_week?: number | null;
  start_time_increment?: (typeof INCREMENTS)[number];
  requires_confirmation?: boolean;
  guests_allowed?: boolean;
}

/** Provider 3 has no link generation yet: refuse it when the event type is saved (DESIGN.md §3). */
function refuseUnsupported(input: EventTypeInput): void {
  if (input.location_type === 'video_provider_3') {
    throw validationFailed(
      [
        {
          path: 'body.location_type',
          message: 'video_provider_3 is not yet supported: link generation exists for video_provider_1 and video_provider_2 only',
        },
      ],
      'video_provider_3 is not yet supported',
    );
  }
}

function columns(input: EventTypeInput): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input)) {
    if (v === undefined || k === 'slug') continue;
    out[k === 'location' ? 'location_value' : k] = v;
  }
  return out;
}

export async function getEventTypeRow(db: Executor, teamId: string, pageId: string, id: string): Promise<EventTypeRow> {
  const row = await db('event_types').where({ id, team_id: teamId, scheduling_page_id: pageId }).first();
  if (!row) throw notFound('Event type');
  return row;
}

export async function listEventTypes(db: Db, teamId: string, pageId: string, page: Page) {
  await getPageRow(db, teamId, pageId);
  const base = db('event_types').where({ scheduling_page_id: pageId, team_id: teamId });
  const [rows, count] = await Promise.all([
    base
      .clone()
      .orderBy([{ column: 'position' }, { column: 'created_at' }, { column: 'id' }])
      .limit(page.perPage)
      .offset(page.offset),
    base.clone().count<{ count: number }[]>({ count: '*' }).first(),
  ]);
  return listEnvelope(rows.map(presentEventType), Number(count?.count ?? 0), page);
}

const slugTaken = (db: Executor, pageId: string, exceptId?: string) => async (slug: string) =>
  !!(await db('event_types')
    .where({ scheduling_page_id: pageId, slug })
    .modify((q) => (exceptId ? q.whereNot({ id: exceptId }) : q))
    .first('id'));

export async function createEventType(db: Db, teamId: string, pageId: string, input: EventTypeInput & { title: string }) {
  refuseUnsupported(input);
  return db.transaction(async (trx) => {
    await getPageRow(trx, teamId, pageId);
    const slug = await chooseSlug(input.slug, input.title, slugTaken(trx, pageId));
    const position =
      input.position ??
      Number(
        (await trx('event_types').where({ scheduling_page_id: pageId }).count<{ count: number }[]>({ count: '*' }).first())?.count ?? 0,
      );
    const [row] = await mapUniqueViolation(
      () =>
        trx('event_types')
          .insert({ ...columns(input), position, slug, team_id: teamId, scheduling_page_id: pageId })
          .returning('*'),
      `The slug "${slug}" is already taken on this page`,
    );
    return presentEventType(row);
  });
}

export async function updateEventType(db: Db, teamId: string, pageId: string, id: string, input: EventTypeInput) {
  refuseUnsupported(input);
  return db.transaction(async (trx) => {
    const current = await getEventTypeRow(trx, teamId, pageId, id);
    const patch = columns(input);
    if (input.slug !== undefined && input.slug !== current.slug) patch.slug = await chooseSlug(input.slug, '', slugTaken(trx, pageId, id));
    if (!Object.keys(patch).length) return presentEventType(current);
    const [row] = await mapUniqueViolation(
      () =>
        trx('event_types')
          .where({ id })
          .update({ ...patch, updated_at: trx.fn.now() })
          .returning('*'),
      'The slug is already taken on this page',
    );
    return presentEventType(row);
  });
}

export async function deleteEventType(db: Db, teamId: string, pageId: string, id: string): Promise<void> {
  const n = await db('event_types').where({ id, team_id: teamId, scheduling_page_id: pageId }).delete();
  if (!n) throw notFound('Event type');
}
