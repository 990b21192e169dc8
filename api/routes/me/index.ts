import { z } from 'zod';
import { notFound } from '../../../core/errors';
import { defineRoute } from '../../http/route';
import { zIanaZone } from '../../../core/validate';
import { getUser, presentUser } from '../../../services/accounts';

export const meRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/v1/me',
    auth: { scope: 'user:read' },
    summary: 'The acting user (the team owner for an API key)',
    tags: ['user'],
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
    body: z.strictObject({ name: z.string().trim().min(1).max(200).optional(), timezone: zIanaZone.optional() }),
    handler: async ({ body, principal, deps }) => {
      const [user] = await deps
        .db('users')
        .where({ id: principal.userId, team_id: principal.teamId })
        .update({ ...body, updated_at: deps.db.fn.now() })
        .returning('*');
      if (!user) throw notFound('User');
      return { data: presentUser(user) };
    },
  }),
];
