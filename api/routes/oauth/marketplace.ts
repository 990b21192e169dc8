import { notFound } from '../../../core/errors';
import { toPage } from '../../../services/pagination';
import { defineRoute } from '../../http/route';
import { zIdParams } from '../../../core/validate';
import { disconnectApp } from '../../../services/oauth/revoke';
import {
  createRating,
  deleteRating,
  getListedApp,
  listedAppIcon,
  listInstalledApps,
  listListedApps,
  listReviews,
  presentListing,
  presentRating,
} from '../../../services/oauth/marketplace';
import {
  appIdParams,
  installedAppList,
  listingAnswer,
  listingList,
  listQuery,
  marketplaceQuery,
  reviewAnswer,
  reviewBody,
  reviewList,
} from './schema';

export const marketplaceRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/marketplace/apps',
    auth: 'public',
    summary: 'Approved apps, filterable by category and searchable, with rating and install count',
    tags: ['marketplace'],
    query: marketplaceQuery,
    response: listingList,
    handler: ({ query, deps }) => listListedApps(deps, { page: toPage(query), category: query.category, q: query.q }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/marketplace/apps/:id',
    auth: 'public',
    summary: 'One approved app',
    tags: ['marketplace'],
    params: zIdParams,
    response: listingAnswer,
    handler: async ({ params, deps }) => ({ data: presentListing(await getListedApp(deps, { id: params.id }), deps.config.baseUrl) }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/marketplace/apps/:id/icon.png',
    auth: 'public',
    summary: 'The icon of an approved app (PNG)',
    tags: ['marketplace'],
    params: zIdParams,
    raw: true,
    response: { mediaType: 'image/png', description: 'The PNG icon' },
    handler: async ({ params, ctx, deps }) => {
      const png = await listedAppIcon(deps, { id: params.id });
      ctx.type = 'image/png';
      ctx.set('Cache-Control', 'public, max-age=300');
      ctx.body = png;
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/marketplace/apps/:id/reviews',
    auth: 'public',
    summary: 'Public ratings and reviews of an approved app',
    tags: ['marketplace'],
    params: zIdParams,
    query: listQuery,
    response: reviewList,
    handler: ({ params, query, deps }) => listReviews(deps, { appId: params.id, page: toPage(query) }),
  }),
];

export const meAppsRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/v1/me/apps',
    auth: { scope: 'user:read' },
    summary: 'Apps the acting user has installed (authorized)',
    tags: ['user', 'apps'],
    query: listQuery,
    response: installedAppList,
    handler: ({ query, principal, deps }) =>
      listInstalledApps(deps, { userId: principal.userId, teamId: principal.teamId, page: toPage(query) }),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/v1/me/apps/:app_id',
    auth: { scope: 'user:write' },
    summary: 'Disconnect an app: its tokens for this user are revoked',
    tags: ['user', 'apps'],
    params: appIdParams,
    status: 204,
    handler: async ({ params, principal, deps }) => {
      if (!(await disconnectApp(deps, { userId: principal.userId, teamId: principal.teamId, appId: params.app_id })))
        throw notFound('Installed app');
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/v1/me/app-reviews',
    auth: { scope: 'user:write' },
    summary: 'Rate and review an approved app (one review per user per app)',
    tags: ['user', 'marketplace'],
    body: reviewBody,
    status: 201,
    response: reviewAnswer,
    conflict: 'You have already reviewed this app',
    handler: async ({ body, principal, deps }) => ({
      data: presentRating(await createRating(deps, { teamId: principal.teamId, userId: principal.userId, values: body })),
    }),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/v1/me/app-reviews/:app_id',
    auth: { scope: 'user:write' },
    summary: "Delete the acting user's review of an app",
    tags: ['user', 'marketplace'],
    params: appIdParams,
    status: 204,
    handler: ({ params, principal, deps }) =>
      deleteRating(deps, { userId: principal.userId, teamId: principal.teamId, appId: params.app_id }),
  }),
];
