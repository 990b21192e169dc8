import { defineRoute } from '../../http/route';
import { zIdParams } from '../../../core/validate';
import {
  createApiKey,
  getApiKey,
  keyScopes,
  listApiKeys,
  presentApiKey,
  regenerateApiKey,
  revokeApiKey,
  type KeyActor,
} from '../../../services/api-keys';
import type { Principal } from '../../../core/principal';

import { apiKeyAnswer, apiKeyList, apiKeyWithSecretAnswer, createBody } from './schema';

const actor = (p: Principal): KeyActor => ({ teamId: p.teamId, userId: p.userId, role: p.role });
const everyRole = { dashboardOnly: true, roles: ['owner', 'admin', 'member'] } as const;

export const apiKeyRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/v1/api-keys',
    auth: everyRole,
    summary: "List API keys: an owner's or admin's session sees every key of the team, a member's its own (secrets are never shown again)",
    tags: ['api-keys'],
    response: apiKeyList,
    handler: async ({ principal, deps }) => {
      const keys = await listApiKeys(deps, { actor: actor(principal) });
      return { data: keys.map(presentApiKey), meta: { total: keys.length, page: 1, per_page: keys.length, total_pages: 1 } };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/v1/api-keys',
    auth: everyRole,
    summary:
      "Create an API key acting as you; the secret is in this response only. Scopes default to, and may not exceed, your role's (403 insufficient_scope naming the scope)",
    tags: ['api-keys'],
    body: createBody,
    response: apiKeyWithSecretAnswer,
    status: 201,
    idempotent: true,
    handler: async ({ body, principal, deps }) => {
      const { key, secret } = await createApiKey(deps, {
        teamId: principal.teamId,
        scopes: keyScopes(principal.role, body.scopes),
        name: body.name,
        mode: body.mode,
        createdBy: principal.userId,
      });
      return { data: { ...presentApiKey(key), api_key: secret } };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/v1/api-keys/:id',
    auth: everyRole,
    summary: 'Read one API key (a member: only its own)',
    tags: ['api-keys'],
    params: zIdParams,
    response: apiKeyAnswer,
    handler: async ({ params, principal, deps }) => ({
      data: presentApiKey(await getApiKey(deps, { actor: actor(principal), id: params.id })),
    }),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/v1/api-keys/:id',
    auth: everyRole,
    summary: 'Revoke an API key (owners and admins: any key of the team; a member: its own)',
    tags: ['api-keys'],
    params: zIdParams,
    status: 204,
    handler: async ({ params, principal, deps }) => revokeApiKey(deps, { actor: actor(principal), id: params.id }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/v1/api-keys/:id/regenerate',
    auth: everyRole,
    summary: "Replace the key's secret; the old one stops working at once. Only the key's creator (403 forbidden for anyone else)",
    tags: ['api-keys'],
    params: zIdParams,
    response: apiKeyWithSecretAnswer,
    idempotent: true,
    handler: async ({ params, principal, deps }) => {
      const { key, secret } = await regenerateApiKey(deps, { actor: actor(principal), id: params.id });
      return { data: { ...presentApiKey(key), api_key: secret } };
    },
  }),
];
