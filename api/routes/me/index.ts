import { notFound } from '../../../core/errors';
import { defineRoute } from '../../http/route';
import { getUser, presentUser } from '../../../services/accounts/users';
import { toPage } from '../../../services/pagination';
import { updateProfile } from '../../../services/accounts/profile';
import { listMySessions, revokeMySession, revokeOtherSessions } from '../../../services/accounts/user-sessions';
import { meAnswer, mePatchBody, profileAnswer, revokedAnswer, sessionList, sessionListQuery, sessionParams } from './schema';

export const meRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/v1/me',
    auth: { scope: 'user:read' },
    summary: 'The acting user (the team owner for an API key)',
    tags: ['user'],
    response: meAnswer,
    handler: async ({ principal, deps }) => {
      const user = await getUser(deps, { teamId: principal.teamId, userId: principal.userId });
      if (!user) throw notFound('User');
      return { data: { ...presentUser(user), credential: principal.kind, scopes: [...principal.scopes] } };
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/api/v1/me',
    auth: { scope: 'user:write' },
    summary:
      "Update the acting user's name, timezone or avatar URL; a new email needs current_password and takes effect once confirmed from the new address (pending_email)",
    tags: ['user'],
    body: mePatchBody,
    response: profileAnswer,
    conflict: 'Another account uses this email',
    handler: async ({ body, principal, deps, ctx }) => ({ data: await updateProfile(deps, { principal, changes: body, ip: ctx.ip }) }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/v1/me/sessions',
    auth: { dashboardOnly: true, scope: 'user:read' },
    summary: 'My dashboard sessions: created at, last used, user agent, IP; `current` marks this one',
    tags: ['user'],
    query: sessionListQuery,
    response: sessionList,
    handler: ({ query, principal, deps }) => listMySessions(deps, { principal, page: toPage(query) }),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/v1/me/sessions/:id',
    auth: { dashboardOnly: true, scope: 'user:write' },
    summary: 'Sign out one of my sessions',
    tags: ['user'],
    params: sessionParams,
    status: 204,
    handler: ({ params, principal, deps }) => revokeMySession(deps, { principal, sessionId: params.id }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/v1/me/sessions/revoke-others',
    auth: { dashboardOnly: true, scope: 'user:write' },
    summary: 'Sign out every session of mine but this one',
    tags: ['user'],
    response: revokedAnswer,
    handler: async ({ principal, deps }) => ({ data: await revokeOtherSessions(deps, { principal }) }),
  }),
];
