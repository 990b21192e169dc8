import { notFound } from '../../../core/errors';
import { defineRoute } from '../../http/route';
import { getUser, presentUser, updateUser } from '../../../services/accounts';
import { meAnswer, mePatchBody, userAnswer } from './schema';

export const meRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/v1/me',
    auth: { scope: 'user:read' },
    summary: 'The acting user (the team owner for an API key)',
    tags: ['user'],
    response: meAnswer,
    handler: async ({ principal, deps }) => {
      const user = await getUser(deps.db, principal.teamId, principal.userId);
      if (!user) throw notFound('User');
      return { data: { ...presentUser(user), credential: principal.kind, scopes: [...principal.scopes] } };
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/api/v1/me',
    auth: { scope: 'user:write' },
    summary: "Update the acting user's name or timezone",
    tags: ['user'],
    body: mePatchBody,
    response: userAnswer,
    handler: async ({ body, principal, deps }) => {
      const user = await updateUser(deps, { teamId: principal.teamId, userId: principal.userId, ...body });
      if (!user) throw notFound('User');
      return { data: presentUser(user) };
    },
  }),
];
