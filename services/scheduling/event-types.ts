import type { Executor } from '../../db/knex';
import type { ServiceDeps } from '../deps';
import { notFound, validationFailed } from '../../core/errors';
import { listEnvelope, type Page } from '../pagination';
import { getPageRow } from './pages';
import { presentEventType, type EventTypeRow } from './present';
import { chooseSlug, mapUniqueViolation } from './slug';
import { checkEventTypeCalendars } from './event-type-calendars';

type Deps = Pick<ServiceDeps, 'db'> & Partial<Pick<ServiceDeps, 'video'>>;

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
  ai_notes_enabled?: boolean;
  destination_calendar_id?: string | null;
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

/** Names one event type of one page of a team. */
export interface EventTypeRef {
  teamId: string;
  pageId: string;
  id: string;
}

export async function getEventTypeRow(deps: Pick<ServiceDeps, 'db'>, input: EventTypeRef): Promise<EventTypeRow> {
  const { db } = deps;
  const { teamId, pageId, id } = input;
  const row = await db('event_types').where({ id, team_id: teamId, scheduling_page_id: pageId }).first();
  if (!row) throw notFound('Event type');
  return row;
}

export async function listEventTypes(deps: Deps, input: { teamId: string; pageId: string; page: Page }) {
  const { db } = deps;
  const { teamId, pageId, page } = input;
  await getPageRow(db, { teamId, id: pageId });
  const base = db('event_types').where({ scheduling_page_id: pageId, team_id: teamId });
  const [rows, count] = await Promise.all([
    base
      .clone()
      .orderBy([{ column: 'position' }, { column: 'created_at' }, { column: 'id' }])
      .limit(page.perPage)
      .offset(page.offset),
    base.clone().count<{ count: number }[]>({ count: '*' }).first(),
  ]);
  return listEnvelope(
    rows.map((r) => presentEventType(r, deps.video)),
    Number(count?.count ?? 0),
    page,
  );
}

const slugTaken = (db: Executor, pageId: string, exceptId?: string) => async (slug: string) =>
  !!(await db('event_types')
    .where({ scheduling_page_id: pageId, slug })
    .modify((q) => (exceptId ? q.whereNot({ id: exceptId }) : q))
    .first('id'));

export interface CreateEventTypeInput {
  teamId: string;
  pageId: string;
  values: EventTypeInput & { title: string };
}

export async function createEventType(deps: Deps, input: CreateEventTypeInput) {
  const { db } = deps;
  const { teamId, pageId, values } = input;
  refuseUnsupported(values);
  return db.transaction(async (trx) => {
    await getPageRow(trx, { teamId, id: pageId });
    await checkEventTypeCalendars(trx, deps, {
      teamId,
      pageId,
      locationType: values.location_type ?? 'video_provider_1',
      destinationCalendarId: values.destination_calendar_id ?? null,
    });
    const slug = await chooseSlug(values.slug, values.title, slugTaken(trx, pageId));
    const position =
      values.position ??
      Number(
        (await trx('event_types').where({ scheduling_page_id: pageId }).count<{ count: number }[]>({ count: '*' }).first())?.count ?? 0,
      );
    const [row] = await mapUniqueViolation(
      () =>
        trx('event_types')
          .insert({ ...columns(values), position, slug, team_id: teamId, scheduling_page_id: pageId })
          .returning('*'),
      `The slug "${slug}" is already taken on this page`,
    );
    return presentEventType(row, deps.video);
  });
}

export interface UpdateEventTypeInput extends EventTypeRef {
  changes: EventTypeInput;
}

export async function updateEventType(deps: Deps, input: UpdateEventTypeInput) {
  const { db } = deps;
  const { teamId, pageId, id, changes } = input;
  refuseUnsupported(changes);
  return db.transaction(async (trx) => {
    const current = await getEventTypeRow({ db: trx }, { teamId, pageId, id });
    if (changes.location_type !== undefined || changes.destination_calendar_id !== undefined)
      await checkEventTypeCalendars(trx, deps, {
        teamId,
        pageId,
        locationType: changes.location_type ?? current.location_type,
        destinationCalendarId:
          changes.destination_calendar_id === undefined ? current.destination_calendar_id : changes.destination_calendar_id,
      });
    const patch = columns(changes);
    if (changes.slug !== undefined && changes.slug !== current.slug)
      patch.slug = await chooseSlug(changes.slug, '', slugTaken(trx, pageId, id));
    if (!Object.keys(patch).length) return presentEventType(current, deps.video);
    const [row] = await mapUniqueViolation(
      () =>
        trx('event_types')
          .where({ id })
          .update({ ...patch, updated_at: trx.fn.now() })
          .returning('*'),
      'The slug is already taken on this page',
    );
    return presentEventType(row, deps.video);
  });
}

export async function deleteEventType(deps: Pick<ServiceDeps, 'db'>, input: EventTypeRef): Promise<void> {
  const { db } = deps;
  const { teamId, pageId, id } = input;
  const n = await db('event_types').where({ id, team_id: teamId, scheduling_page_id: pageId }).delete();
  if (!n) throw notFound('Event type');
}
