import type { AppRatingsRow, AppsRow } from '../../db/tables';
import type { Knex } from 'knex';
import type { Db } from '../../db/knex';
import { conflict, notFound } from '../../core/errors';
import type { AppLive } from './apps';
import { paginate, type Page } from '../pagination';
import type { ServiceDeps } from '../deps';

type ListedRow = Pick<AppsRow, 'id' | 'icon_bytes'> & {
  live: AppLive;
  approved_at: Date;
  installs: number;
  rating_average: string | null;
  rating_count: number;
};

/** Approved apps only, as their approved version: a major change under review is not shown. */
export function listedApps(db: Db): Knex.QueryBuilder {
  return db('apps')
    .whereNotNull('apps.live')
    .select(
      'apps.id',
      'apps.live',
      'apps.icon_bytes',
      'apps.approved_at',
      db.raw(`(select count(*) from app_installs i where i.app_id = apps.id and i.revoked_at is null)::int as installs`),
      db.raw(`(select round(avg(r.rating)::numeric, 2) from app_ratings r where r.app_id = apps.id) as rating_average`),
      db.raw(`(select count(*) from app_ratings r where r.app_id = apps.id)::int as rating_count`),
    );
}

export function presentListing(r: ListedRow, baseUrl: string) {
  return {
    id: r.id,
    name: r.live.name,
    short_description: r.live.short_description,
    description: r.live.description,
    category: r.live.category,
    website_url: r.live.website_url,
    privacy_policy_url: r.live.privacy_policy_url,
    terms_url: r.live.terms_url,
    documentation_url: r.live.documentation_url,
    screenshots: r.live.screenshots,
    scopes: r.live.scopes,
    icon_url: r.icon_bytes === null ? null : `${baseUrl}/api/marketplace/apps/${r.id}/icon.png`,
    installs: Number(r.installs),
    rating: { average: r.rating_average === null ? null : Number(r.rating_average), count: Number(r.rating_count) },
    approved_at: r.approved_at,
  };
}

export function filterListed(q: Knex.QueryBuilder, filters: { category?: string; q?: string }): Knex.QueryBuilder {
  if (filters.category) q.whereRaw(`apps.live->>'category' = ?`, [filters.category]);
  if (filters.q) {
    const like = `%${filters.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q.where((w) =>
      w
        .whereRaw(`apps.live->>'name' ilike ?`, [like])
        .orWhereRaw(`apps.live->>'short_description' ilike ?`, [like])
        .orWhereRaw(`apps.live->>'description' ilike ?`, [like]),
    );
  }
  return q;
}

export async function getListedApp(deps: Pick<ServiceDeps, 'db'>, { id }: { id: string }): Promise<ListedRow> {
  const row = await listedApps(deps.db).where({ 'apps.id': id }).first();
  if (!row) throw notFound('App');
  return row;
}

export function presentRating(r: AppRatingsRow & { author_name?: string | null }) {
  return {
    id: r.id,
    app_id: r.app_id,
    rating: r.rating,
    title: r.title,
    body: r.body,
    author_name: r.author_name ?? null,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

export interface CreateRatingInput {
  teamId: string;
  userId: string;
  values: { app_id: string; rating: number; title?: string | null; body?: string | null };
}

/** One review per user per app; only listed apps can be reviewed. */
export async function createRating(deps: Pick<ServiceDeps, 'db'>, { teamId, userId, values: input }: CreateRatingInput) {
  const { db } = deps;
  await getListedApp(deps, { id: input.app_id });
  try {
    const [row] = await db('app_ratings')
      .insert({
        team_id: teamId,
        user_id: userId,
        app_id: input.app_id,
        rating: input.rating,
        title: input.title ?? null,
        body: input.body ?? null,
      })
      .returning('*');
    return row;
  } catch (err) {
    if ((err as { code?: string }).code === '23505') throw conflict('You have already reviewed this app; update or delete your review');
    throw err;
  }
}

const newestFirst = (alias: string) => [
  { column: `${alias}.created_at`, order: 'desc' as const },
  { column: `${alias}.id`, order: 'desc' as const },
];

/** The approved apps, filtered, newest approval first. */
export function listListedApps(deps: Pick<ServiceDeps, 'db' | 'config'>, input: { page: Page; category?: string; q?: string }) {
  return paginate(
    filterListed(listedApps(deps.db), input),
    input.page,
    [
      { column: 'approved_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ],
    (r) => presentListing(r, deps.config.baseUrl),
  );
}

/** The PNG icon of an approved app. */
export async function listedAppIcon(deps: Pick<ServiceDeps, 'db'>, { id }: { id: string }): Promise<Buffer> {
  const row = await deps.db('apps').where({ id }).whereNotNull('live').whereNotNull('icon_png').first('icon_png');
  if (!row) throw notFound('Icon');
  return row.icon_png as Buffer;
}

/** Public reviews of an approved app, newest first, with the author's name. */
export async function listReviews(deps: Pick<ServiceDeps, 'db'>, input: { appId: string; page: Page }) {
  await getListedApp(deps, { id: input.appId });
  const base = deps
    .db('app_ratings as r')
    .leftJoin('users as u', 'u.id', 'r.user_id')
    .where({ 'r.app_id': input.appId })
    .select('r.*', 'u.name as author_name');
  return paginate(base, input.page, newestFirst('r'), presentRating);
}

/** Apps a user has installed (authorized) in their team, newest first. */
export function listInstalledApps(deps: Pick<ServiceDeps, 'db'>, input: { userId: string; teamId: string; page: Page }) {
  const base = deps
    .db('app_installs as i')
    .join('apps as a', 'a.id', 'i.app_id')
    .where({ 'i.user_id': input.userId, 'i.team_id': input.teamId })
    .whereNull('i.revoked_at')
    .select('i.app_id', 'i.scopes', 'i.created_at', 'i.id', 'a.name', 'a.live', 'a.website_url');
  return paginate(base, input.page, newestFirst('i'), (r) => ({
    app_id: r.app_id,
    name: r.live?.name ?? r.name,
    website_url: r.live?.website_url ?? r.website_url,
    scopes: r.scopes,
    installed_at: r.created_at,
  }));
}

/** Delete a user's review of an app; 404 when there is none. */
export async function deleteRating(deps: Pick<ServiceDeps, 'db'>, input: { userId: string; teamId: string; appId: string }): Promise<void> {
  const n = await deps.db('app_ratings').where({ app_id: input.appId, user_id: input.userId, team_id: input.teamId }).delete();
  if (!n) throw notFound('Review');
}
