import { ALL_SCOPES } from '../../../core/scopes';
import { defineRoute } from '../../http/route';
import { zIdParams } from '../../../core/validate';
import { createApiKey, getApiKey, listApiKeys, presentApiKey, regenerateApiKey, revokeApiKey } from '../../../services/api-keys';

import { apiKeyAnswer, apiKeyList, apiKeyWithSecretAnswer, createBody } from './schema';

export const apiKeyRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/v1/api-keys',
    auth: { dashboardOnly: true },
    summary: "List the team's API keys (secrets are never shown again)",
    tags: ['api-keys'],
    response: apiKeyList,
    handler: async ({ principal, deps }) => {
      const keys = await listApiKeys(deps, { teamId: principal.teamId });
      return { data: keys.map(presentApiKey), meta: { total: keys.length, page: 1, per_page: keys.length, total_pages: 1 } };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/v1/api-keys',
    auth: { dashboardOnly: true },
    summary: 'Create an API key; the secret is in this response only',
    tags: ['api-keys'],
    body: createBody,
    response: apiKeyWithSecretAnswer,
    status: 201,
    idempotent: true,
    handler: async ({ body, principal, deps }) => {
      const { key, secret } = await createApiKey(deps, {
        teamId: principal.teamId,
        scopes: body.scopes ?? [...ALL_SCOPES],
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
    auth: { dashboardOnly: true },
    summary: 'Read one API key',
    tags: ['api-keys'],
    params: zIdParams,
    response: apiKeyAnswer,
    handler: async ({ params, principal, deps }) => ({
      data: presentApiKey(await getApiKey(deps, { teamId: principal.teamId, id: params.id })),
    }),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/v1/api-keys/:id',
    auth: { dashboardOnly: true },
    summary: 'Revoke an API key',
    tags: ['api-keys'],
    params: zIdParams,
    status: 204,
    handler: async ({ params, principal, deps }) => revokeApiKey(deps, { teamId: principal.teamId, id: params.id }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/v1/api-keys/:id/regenerate',
    auth: { dashboardOnly: true },
    summary: "Replace the key's secret; the old one stops working at once",
    tags: ['api-keys'],
    params: zIdParams,
    response: apiKeyWithSecretAnswer,
    handler: async ({ params, principal, deps }) => {
      const { key, secret } = await regenerateApiKey(deps, { teamId: principal.teamId, id: params.id });
      return { data: { ...presentApiKey(key), api_key: secret } };
    },
  }),
];
