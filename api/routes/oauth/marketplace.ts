import { z } from 'zod';
import { APP_CATEGORIES } from '../../../domain/app-checklist';
import { notFound } from '../../../core/errors';
import { paginate, paginationQuery, toPage } from '../../../services/pagination';
import { defineRoute } from '../../http/route';
import { zIdParams, zText, zUuid } from '../../../core/validate';
import { disconnectApp } from '../../../services/oauth/revoke';
import { createRating, filterListed, getListedApp, listedApps, presentListing, presentRating } from '../../../services/oauth/marketplace';

const order = [
  { column: 'created_at', order: 'desc' as const },
  { column: 'id', order: 'desc' as const },
];

export const marketplaceRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/marketplace/apps',
    auth: 'public',
    summary: 'Approved apps, filterable by category and searchable, with rating and install count',
    tags: ['marketplace'],
    query: z.object({ ...paginationQuery, category: z.enum(APP_CATEGORIES).optional(), q: zText(200).optional() }),
    handler: async ({ query, deps }) =>
      paginate(
        filterListed(listedApps(deps.db), query),
        toPage(query),
        [
          { column: 'approved_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ],
        (r) => presentListing(r, deps.config.baseUrl),
      ),
  }),
  defineRoute({
    method: 'get',
    path: '/api/marketplace/apps/:id',
    auth: 'public',
    summary: 'One approved app',
    tags: ['marketplace'],
    params: zIdParams,
    handler: async ({ params, deps }) => ({ data: presentListing(await getListedApp(deps.db, params.id), deps.config.baseUrl) }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/marketplace/apps/:id/icon.png',
    auth: 'public',
    summary: 'The icon of an approved app (PNG)',
    tags: ['marketplace'],
    params: zIdParams,
    raw: true,
    handler: async ({ params, ctx, deps }) => {
      const row = await deps.db('apps').where({ id: params.id }).whereNotNull('live').whereNotNull('icon_png').first('icon_png');
      if (!row) throw notFound('Icon');
      ctx.type = 'image/png';
      ctx.set('Cache-Control', 'public, max-age=300');
      ctx.body = row.icon_png;
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/marketplace/apps/:id/reviews',
    auth: 'public',
    summary: 'Public ratings and reviews of an approved app',
    tags: ['marketplace'],
    params: zIdParams,
    query: z.object({ ...paginationQuery }),
    handler: async ({ params, query, deps }) => {
      await getListedApp(deps.db, params.id);
      const base = deps
        .db('app_ratings as r')
        .leftJoin('users as u', 'u.id', 'r.user_id')
        .where({ 'r.app_id': params.id })
        .select('r.*', 'u.name as author_name');
      return paginate(
        base,
        toPage(query),
        order.map((o) => ({ ...o, column: `r.${o.column}` })),
        presentRating,
      );
    },
  }),
];

export const meAppsRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/v1/me/apps',
    auth: { scope: 'user:read' },
    summary: 'Apps the acting user has installed (authorized)',
    tags: ['user', 'apps'],
    query: z.object({ ...paginationQuery }),
    handler: async ({ query, principal, deps }) => {
      const base = deps
        .db('app_installs as i')
        .join('apps as a', 'a.id', 'i.app_id')
        .where({ 'i.user_id': principal.userId, 'i.team_id': principal.teamId })
        .whereNull('i.revoked_at')
        .select('i.app_id', 'i.scopes', 'i.created_at', 'i.id', 'a.name', 'a.live', 'a.website_url');
      return paginate(
        base,
        toPage(query),
        order.map((o) => ({ ...o, column: `i.${o.column}` })),
        (r) => ({
          app_id: r.app_id,
          name: r.live?.name ?? r.name,
          website_url: r.live?.website_url ?? r.website_url,
          scopes: r.scopes,
          installed_at: r.created_at,
        }),
      );
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/api/v1/me/apps/:app_id',
    auth: { scope: 'user:write' },
    summary: 'Disconnect an app: its tokens for this user are revoked',
    tags: ['user', 'apps'],
    params: z.strictObject({ app_id: zUuid }),
    status: 204,
    handler: async ({ params, principal, deps }) => {
      if (!(await disconnectApp(deps.db, principal.userId, principal.teamId, params.app_id))) throw notFound('Installed app');
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/v1/me/app-reviews',
    auth: { scope: 'user:write' },
    summary: 'Rate and review an approved app (one review per user per app)',
    tags: ['user', 'marketplace'],
    body: z.strictObject({
      app_id: zUuid,
      rating: z.number().int().min(1).max(5),
      title: zText(200).nullable().optional(),
      body: zText(5000).nullable().optional(),
    }),
    status: 201,
    handler: async ({ body, principal, deps }) => ({ data: presentRating(await createRating(deps.db, principal, body)) }),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/v1/me/app-reviews/:app_id',
    auth: { scope: 'user:write' },
    summary: "Delete the acting user's review of an app",
    tags: ['user', 'marketplace'],
    params: z.strictObject({ app_id: zUuid }),
    status: 204,
    handler: async ({ params, principal, deps }) => {
      const n = await deps
        .db('app_ratings')
        .where({ app_id: params.app_id, user_id: principal.userId, team_id: principal.teamId })
        .delete();
      if (!n) throw notFound('Review');
    },
  }),
];
