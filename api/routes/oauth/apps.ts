import { z } from 'zod';
import { ALL_SCOPES } from '../../../core/scopes';
import { APP_CATEGORIES, redirectUriProblem } from '../../../domain/app-checklist';
import { paginate, paginationQuery, toPage } from '../../../services/pagination';
import { defineRoute } from '../../http/route';
import { zIdParams, zText } from '../../../core/validate';
import {
  APP_COLUMNS,
  createApp,
  deleteApp,
  getTeamApp,
  installsCount,
  presentApp,
  rotateSecret,
  type AppRow,
} from '../../../services/oauth/apps';
import { decide, submitApp, updateApp } from '../../../services/oauth/review';

const zHttpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(2000);
const zHttpsUrl = z.url({ protocol: /^https$/, error: 'must be an https URL' }).max(2000);
const zRedirectUri = z
  .string()
  .max(2000)
  .superRefine((v, c) => {
    const p = redirectUriProblem(v);
    if (p) c.addIssue({ code: 'custom', message: `redirect URI ${p}` });
  });

const fields = {
  name: zText(100).trim().min(1),
  description: zText(2000).trim().min(1),
  short_description: zText(500).trim().nullable(),
  website_url: zHttpUrl,
  privacy_policy_url: zHttpUrl.nullable(),
  terms_url: zHttpUrl.nullable(),
  documentation_url: zHttpUrl.nullable(),
  category: z.enum(APP_CATEGORIES).nullable(),
  redirect_uris: z.array(zRedirectUri).min(1).max(20),
  scopes: z.array(z.enum(ALL_SCOPES)).min(1),
  screenshots: z.array(zHttpsUrl).max(10),
  icon: z.string().max(1_000_000).nullable(),
};

const createBody = z.strictObject({
  ...fields,
  short_description: fields.short_description.optional(),
  privacy_policy_url: fields.privacy_policy_url.optional(),
  terms_url: fields.terms_url.optional(),
  documentation_url: fields.documentation_url.optional(),
  category: fields.category.optional(),
  screenshots: fields.screenshots.optional(),
  icon: fields.icon.optional(),
});
const patchBody = z.strictObject(
  Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v.optional()])) as {
    [K in keyof typeof fields]: z.ZodOptional<(typeof fields)[K]>;
  },
);

export const appsRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/v1/apps',
    auth: { dashboardOnly: true },
    summary: "List the team's OAuth apps (developer portal)",
    tags: ['apps'],
    query: z.object({ ...paginationQuery }),
    handler: async ({ query, principal, deps }) => {
      const base = deps
        .db('apps')
        .where({ 'apps.team_id': principal.teamId })
        .select([...APP_COLUMNS, installsCount(deps.db)]);
      return paginate(
        base,
        toPage(query),
        [
          { column: 'created_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ],
        (r: AppRow) => presentApp(r, deps.config.baseUrl),
      );
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/v1/apps',
    auth: { dashboardOnly: true },
    summary: 'Register an OAuth app; client_secret is in this response only',
    tags: ['apps'],
    body: createBody,
    status: 201,
    idempotent: true,
    handler: async ({ body, principal, deps }) => {
      const { app, secret } = await createApp(deps.db, principal.teamId, principal.userId, body);
      return { data: { ...presentApp(app, deps.config.baseUrl), client_secret: secret } };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/v1/apps/:id',
    auth: { dashboardOnly: true },
    summary: 'Read one app, with its total installs and review stage',
    tags: ['apps'],
    params: zIdParams,
    handler: async ({ params, principal, deps }) => ({
      data: presentApp(await getTeamApp(deps.db, principal.teamId, params.id), deps.config.baseUrl),
    }),
  }),
  defineRoute({
    method: 'patch',
    path: '/api/v1/apps/:id',
    auth: { dashboardOnly: true },
    summary: 'Update settings, branding, descriptions or callback URLs; on an approved app, scope or redirect URI changes re-enter review',
    tags: ['apps'],
    params: zIdParams,
    body: patchBody,
    handler: async ({ params, body, principal, deps }) => ({
      data: presentApp(await updateApp(deps, principal.teamId, params.id, body), deps.config.baseUrl),
    }),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/v1/apps/:id',
    auth: { dashboardOnly: true },
    summary: 'Delete an app: its tokens stop working',
    tags: ['apps'],
    params: zIdParams,
    status: 204,
    handler: async ({ params, principal, deps }) => deleteApp(deps.db, principal.teamId, params.id),
  }),
  defineRoute({
    method: 'post',
    path: '/api/v1/apps/:id/rotate-secret',
    auth: { dashboardOnly: true },
    summary: 'Issue a new client secret (shown once); the old one stops working',
    tags: ['apps'],
    params: zIdParams,
    handler: async ({ params, principal, deps }) => {
      const { app, secret } = await rotateSecret(deps.db, principal.teamId, params.id);
      return { data: { ...presentApp(app, deps.config.baseUrl), client_secret: secret } };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/v1/apps/:id/submit',
    auth: { dashboardOnly: true },
    summary: 'Submit the app for review (or resubmit after changes were requested); a 400 lists every missing checklist item',
    tags: ['apps'],
    params: zIdParams,
    handler: async ({ params, principal, deps }) => ({
      data: presentApp(await submitApp(deps, principal.teamId, params.id), deps.config.baseUrl),
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/staff/apps/:id/decision',
    auth: { staff: true },
    summary: 'Staff reviewer decision on the current review stage',
    tags: ['apps', 'staff'],
    params: zIdParams,
    body: z.strictObject({ stage_outcome: z.enum(['approve', 'request_changes', 'reject']), notes: zText(5000).nullable().optional() }),
    status: 202,
    handler: async ({ params, body, principal, deps }) => ({
      data: await decide(deps, principal.userId, params.id, body.stage_outcome, body.notes ?? null),
    }),
  }),
];
