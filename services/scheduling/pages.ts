import type { Knex } from 'knex';
import type { Executor } from '../../db/knex';
import type { ServiceDeps } from '../deps';
import { notFound } from '../../core/errors';
import { paginate, type Page } from '../pagination';
import { presentPage, presentPageSummary, type EventTypeRow, type PageRow } from './present';
import { chooseSlug, mapUniqueViolation } from './slug';

export const PAGE_TYPES = ['one_on_one', 'round_robin', 'group'] as const;
export type PageType = (typeof PAGE_TYPES)[number];

export interface PageInput {
  title?: string;
  slug?: string;
  description?: string;
  page_type?: PageType;
  status?: 'draft' | 'published';
  settings?: { confirmation_message?: string; show_avatar?: boolean; redirect_url?: string };
  remove_branding?: boolean;
  host_user_ids?: string[];
}

/** The team's page, in the caller's transaction when it has one. */
export async function getPageRow(trx: Executor, input: { teamId: string; id: string }): Promise<PageRow> {
  const { teamId, id } = input;
  const row = await trx('scheduling_pages').where({ id, team_id: teamId }).first();
  if (!row) throw notFound('Scheduling page');
  return row;
}

export async function pageHostIds(db: Executor, pageId: string): Promise<string[]> {
  const rows = await db('scheduling_page_hosts')
    .where({ page_id: pageId })
    .orderBy([{ column: 'position' }, { column: 'user_id' }])
    .select('user_id');
  return rows.map((r: { user_id: string }) => r.user_id);
}

/** The hosts who can take bookings: removed members stay listed on the page until reassigned, but get none. */
export async function activePageHostIds(db: Executor, pageId: string | Knex.QueryBuilder): Promise<string[]> {
  const rows = await db('scheduling_page_hosts as h')
    .join('users as u', 'u.id', 'h.user_id')
    .whereIn('h.page_id', typeof pageId === 'string' ? [pageId] : pageId)
    .whereNull('u.removed_at')
    .orderBy([{ column: 'h.position' }, { column: 'h.user_id' }])
    .select('h.user_id');
  return rows.map((r: { user_id: string }) => r.user_id);
}

async function hostIdsByPage(db: Executor, pageIds: string[]): Promise<Map<string, string[]>> {
  const rows = await db('scheduling_page_hosts')
    .whereIn('page_id', pageIds)
    .orderBy([{ column: 'position' }, { column: 'user_id' }]);
  const map = new Map<string, string[]>();
  for (const r of rows) map.set(r.page_id, [...(map.get(r.page_id) ?? []), r.user_id]);
  return map;
}

/** Hosts must be members of the team (not removed ones); anyone else is "not found" (never reveal other teams). */
async function setHosts(trx: Executor, teamId: string, pageId: string, userIds: string[]): Promise<void> {
  const unique = [...new Set(userIds)];
  const found = await trx('users').where({ team_id: teamId }).whereNull('removed_at').whereIn('id', unique).select('id');
  if (found.length !== unique.length) throw notFound('Host user');
  await trx('scheduling_page_hosts').where({ page_id: pageId }).delete();
  if (unique.length) {
    await trx('scheduling_page_hosts').insert(unique.map((user_id, position) => ({ page_id: pageId, user_id, team_id: teamId, position })));
  }
}

export async function listPages(deps: Pick<ServiceDeps, 'db'>, input: { teamId: string; page: Page; status?: string }) {
  const { db } = deps;
  const { teamId, page, status } = input;
  const base = db('scheduling_pages').where({ team_id: teamId });
  if (status) base.where({ status });
  const result = await paginate(
    base,
    page,
    [
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ],
    (r: PageRow) => r,
  );
  const hosts = await hostIdsByPage(
    db,
    result.data.map((p) => p.id),
  );
  return { ...result, data: result.data.map((p) => presentPageSummary(p, hosts.get(p.id) ?? [])) };
}

export async function readPage(deps: Pick<ServiceDeps, 'db'> & Partial<Pick<ServiceDeps, 'video'>>, input: { teamId: string; id: string }) {
  const { db } = deps;
  const { teamId, id } = input;
  const row = await getPageRow(db, { teamId, id });
  const eventTypes: EventTypeRow[] = await db('event_types')
    .where({ scheduling_page_id: id })
    .orderBy([{ column: 'position' }, { column: 'created_at' }, { column: 'id' }]);
  return presentPage(row, await pageHostIds(db, id), eventTypes, deps.video);
}

const slugTaken = (db: Executor, exceptId?: string) => async (slug: string) =>
  !!(await db('scheduling_pages')
    .where({ slug })
    .modify((q) => (exceptId ? q.whereNot({ id: exceptId }) : q))
    .first('id'));

export interface CreatePageInput {
  teamId: string;
  /** The acting user: the page's host when `values.host_user_ids` names none. */
  userId: string;
  values: PageInput & { title: string };
}

export async function createPage(deps: Pick<ServiceDeps, 'db'> & Partial<Pick<ServiceDeps, 'video'>>, input: CreatePageInput) {
  const { db } = deps;
  const { teamId, userId: actingUserId, values } = input;
  return db.transaction(async (trx) => {
    const slug = await chooseSlug(values.slug, values.title, slugTaken(trx));
    const status = values.status ?? 'draft';
    const [row] = await mapUniqueViolation(
      () =>
        trx('scheduling_pages')
          .insert({
            team_id: teamId,
            title: values.title,
            slug,
            description: values.description ?? '',
            page_type: values.page_type ?? 'one_on_one',
            status,
            settings: JSON.stringify(values.settings ?? {}),
            remove_branding: values.remove_branding ?? false,
            published_at: status === 'published' ? trx.fn.now() : null,
          })
          .returning('id'),
      `The slug "${slug}" is already taken`,
    );
    await setHosts(trx, teamId, row.id, values.host_user_ids?.length ? values.host_user_ids : [actingUserId]);
    return readPage({ db: trx, video: deps.video }, { teamId, id: row.id });
  });
}

export interface UpdatePageInput {
  teamId: string;
  id: string;
  changes: PageInput;
}

export async function updatePage(deps: Pick<ServiceDeps, 'db'> & Partial<Pick<ServiceDeps, 'video'>>, input: UpdatePageInput) {
  const { db } = deps;
  const { teamId, id, changes } = input;
  return db.transaction(async (trx) => {
    const current = await getPageRow(trx, { teamId, id });
    const patch: Record<string, unknown> = {};
    if (changes.slug !== undefined && changes.slug !== current.slug) patch.slug = await chooseSlug(changes.slug, '', slugTaken(trx, id));
    for (const k of ['title', 'description', 'page_type', 'remove_branding'] as const) if (changes[k] !== undefined) patch[k] = changes[k];
    if (changes.settings !== undefined) patch.settings = JSON.stringify({ ...current.settings, ...changes.settings });
    if (changes.status !== undefined && changes.status !== current.status) {
      patch.status = changes.status;
      patch.published_at = changes.status === 'published' ? trx.fn.now() : null;
    }
    if (Object.keys(patch).length) {
      await mapUniqueViolation(
        () =>
          trx('scheduling_pages')
            .where({ id })
            .update({ ...patch, updated_at: trx.fn.now() }),
        'The slug is already taken',
      );
    }
    if (changes.host_user_ids !== undefined) await setHosts(trx, teamId, id, changes.host_user_ids);
    return readPage({ db: trx, video: deps.video }, { teamId, id });
  });
}

/** Deleting a page deletes its event types; its meetings stay (their page and event type become null). */
export async function deletePage(deps: Pick<ServiceDeps, 'db'>, input: { teamId: string; id: string }): Promise<void> {
  const { db } = deps;
  const { teamId, id } = input;
  const n = await db('scheduling_pages').where({ id, team_id: teamId }).delete();
  if (!n) throw notFound('Scheduling page');
}

/** The public booking widget's data: a published page by slug and its active event types, or null. */
export async function publishedPageBySlug(
  deps: Pick<ServiceDeps, 'db'>,
  input: { slug: string },
): Promise<{ page: PageRow; eventTypes: EventTypeRow[] } | null> {
  const { db } = deps;
  const page = await db('scheduling_pages').where({ slug: input.slug, status: 'published' }).first();
  if (!page) return null;
  const eventTypes = await db('event_types')
    .where({ scheduling_page_id: page.id, is_active: true })
    .orderBy([{ column: 'position' }, { column: 'created_at' }]);
  return { page, eventTypes };
}
