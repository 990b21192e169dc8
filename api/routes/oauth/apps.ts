import { toPage } from '../../../services/pagination';
import { defineRoute } from '../../http/route';
import { zIdParams } from '../../../core/validate';
import { createApp, deleteApp, getTeamApp, listTeamApps, presentApp, rotateSecret } from '../../../services/oauth/apps';
import { decide, submitApp, updateApp } from '../../../services/oauth/review';
import { appAnswer, appCreateBody, appList, appPatchBody, appWithSecretAnswer, decisionAnswer, decisionBody, listQuery } from './schema';

export const appsRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/v1/apps',
    auth: { dashboardOnly: true, roles: ['owner', 'admin', 'member'] },
    summary: "List the team's OAuth apps (developer portal)",
    tags: ['apps'],
    query: listQuery,
    response: appList,
    handler: ({ query, principal, deps }) => listTeamApps(deps, { teamId: principal.teamId, page: toPage(query) }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/v1/apps',
    auth: { dashboardOnly: true, roles: ['owner', 'admin'] },
    summary: 'Register an OAuth app; client_secret is in this response only',
    tags: ['apps'],
    body: appCreateBody,
    response: appWithSecretAnswer,
    status: 201,
    idempotent: true,
    handler: async ({ body, principal, deps }) => {
      const { app, secret } = await createApp(deps, { teamId: principal.teamId, userId: principal.userId, values: body });
      return { data: { ...presentApp(app, deps.config.baseUrl), client_secret: secret } };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/v1/apps/:id',
    auth: { dashboardOnly: true, roles: ['owner', 'admin', 'member'] },
    summary: 'Read one app, with its total installs and review stage',
    tags: ['apps'],
    params: zIdParams,
    response: appAnswer,
    handler: async ({ params, principal, deps }) => ({
      data: presentApp(await getTeamApp(deps, { teamId: principal.teamId, id: params.id }), deps.config.baseUrl),
    }),
  }),
  defineRoute({
    method: 'patch',
    path: '/api/v1/apps/:id',
    auth: { dashboardOnly: true, roles: ['owner', 'admin'] },
    summary: 'Update settings, branding, descriptions or callback URLs; on an approved app, scope or redirect URI changes re-enter review',
    tags: ['apps'],
    params: zIdParams,
    body: appPatchBody,
    response: appAnswer,
    handler: async ({ params, body, principal, deps }) => ({
      data: presentApp(await updateApp(deps, { teamId: principal.teamId, id: params.id, changes: body }), deps.config.baseUrl),
    }),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/v1/apps/:id',
    auth: { dashboardOnly: true, roles: ['owner', 'admin'] },
    summary: 'Delete an app: its tokens stop working',
    tags: ['apps'],
    params: zIdParams,
    status: 204,
    handler: async ({ params, principal, deps }) => deleteApp(deps, { teamId: principal.teamId, id: params.id }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/v1/apps/:id/rotate-secret',
    auth: { dashboardOnly: true, roles: ['owner', 'admin'] },
    summary: 'Issue a new client secret (shown once); the old one stops working',
    tags: ['apps'],
    params: zIdParams,
    response: appWithSecretAnswer,
    idempotent: true,
    handler: async ({ params, principal, deps }) => {
      const { app, secret } = await rotateSecret(deps, { teamId: principal.teamId, id: params.id });
      return { data: { ...presentApp(app, deps.config.baseUrl), client_secret: secret } };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/v1/apps/:id/submit',
    auth: { dashboardOnly: true, roles: ['owner', 'admin'] },
    summary: 'Submit the app for review (or resubmit after changes were requested); a 400 lists every missing checklist item',
    tags: ['apps'],
    params: zIdParams,
    response: appAnswer,
    conflict: '`invalid_transition`: the app is already in review',
    handler: async ({ params, principal, deps }) => ({
      data: presentApp(await submitApp(deps, { teamId: principal.teamId, id: params.id }), deps.config.baseUrl),
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/staff/apps/:id/decision',
    auth: { staff: true },
    summary: 'Staff reviewer decision on the current review stage',
    tags: ['apps', 'staff'],
    params: zIdParams,
    body: decisionBody,
    response: decisionAnswer,
    conflict: '`invalid_transition`: the app is not at a stage awaiting a decision',
    status: 202,
    handler: async ({ params, body, principal, deps }) => ({
      data: await decide(deps, { reviewerId: principal.userId, appId: params.id, outcome: body.stage_outcome, notes: body.notes ?? null }),
    }),
  }),
];
