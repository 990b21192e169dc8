import { toPage } from '../../../services/pagination';
import { defineRoute, type RouteDef } from '../../http/route';
import { zIdParams } from '../../../core/validate';
import { listDeliveries, retryDelivery, sendTestEvent } from '../../../services/webhooks/deliveries';
import {
  createSubscription,
  deleteSubscription,
  getSubscriptionRow,
  listSubscriptions,
  presentSubscription,
  rotateSecret,
  updateSubscription,
} from '../../../services/webhooks/subscriptions';
import {
  createBody,
  deliveryAnswer,
  deliveryList,
  deliveryListQuery,
  deliveryParams,
  listQuery,
  subscriptionAnswer,
  subscriptionList,
  subscriptionWithSecretAnswer,
  updateBody,
} from './schema';

const tags = ['webhooks'];
const read = { scope: 'webhooks:read' } as const;
const write = { scope: 'webhooks:write' } as const;

export const webhooksRoutes: RouteDef[] = [
  defineRoute({
    method: 'get',
    path: '/api/v1/webhooks',
    auth: read,
    summary: 'List webhook subscriptions',
    tags,
    query: listQuery,
    response: subscriptionList,
    handler: async ({ query, principal, deps }) =>
      listSubscriptions(deps, { teamId: principal.teamId, page: toPage(query), status: query.status }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/v1/webhooks',
    auth: write,
    summary: 'Create a webhook subscription; the signing secret is in this response only',
    tags,
    body: createBody,
    response: subscriptionWithSecretAnswer,
    status: 201,
    idempotent: true,
    handler: async ({ body, principal, deps }) => ({
      data: await createSubscription(deps, { teamId: principal.teamId, values: body }),
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/v1/webhooks/:id',
    auth: read,
    summary: 'Read a webhook subscription',
    tags,
    params: zIdParams,
    response: subscriptionAnswer,
    handler: async ({ params, principal, deps }) => ({
      data: presentSubscription(await getSubscriptionRow(deps, { teamId: principal.teamId, id: params.id })),
    }),
  }),
  defineRoute({
    method: 'patch',
    path: '/api/v1/webhooks/:id',
    auth: write,
    summary: 'Update a webhook subscription (url, events, form_id, description, status)',
    tags,
    params: zIdParams,
    body: updateBody,
    response: subscriptionAnswer,
    handler: async ({ params, body, principal, deps }) => ({
      data: await updateSubscription(deps, { teamId: principal.teamId, id: params.id, changes: body }),
    }),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/v1/webhooks/:id',
    auth: write,
    summary: 'Delete a webhook subscription and its delivery log',
    tags,
    params: zIdParams,
    status: 204,
    handler: async ({ params, principal, deps }) => deleteSubscription(deps, { teamId: principal.teamId, id: params.id }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/v1/webhooks/:id/rotate-secret',
    auth: write,
    summary: 'Replace the signing secret; the old one keeps signing beside it for 24 h',
    tags,
    params: zIdParams,
    response: subscriptionWithSecretAnswer,
    idempotent: true,
    handler: async ({ params, principal, deps }) => ({ data: await rotateSecret(deps, { teamId: principal.teamId, id: params.id }) }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/v1/webhooks/:id/test',
    auth: write,
    summary: 'Send a webhook.test event to this subscription',
    tags,
    params: zIdParams,
    status: 202,
    response: deliveryAnswer,
    conflict: 'The webhook is disabled; enable it first',
    handler: async ({ params, principal, deps }) => ({
      data: await sendTestEvent(deps, { teamId: principal.teamId, subscriptionId: params.id }),
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/v1/webhooks/:id/deliveries',
    auth: read,
    summary: 'List deliveries, newest first, each with its attempts',
    tags,
    params: zIdParams,
    query: deliveryListQuery,
    response: deliveryList,
    handler: async ({ params, query, principal, deps }) =>
      listDeliveries(deps, { teamId: principal.teamId, subscriptionId: params.id, page: toPage(query), status: query.status }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/v1/webhooks/:id/deliveries/:delivery_id/retry',
    auth: write,
    summary: 'Deliver again (a new run of the full schedule, same X-Webhook-Id)',
    tags,
    params: deliveryParams,
    status: 202,
    response: deliveryAnswer,
    conflict: 'The webhook is disabled, or the delivery is still being attempted',
    handler: async ({ params, principal, deps }) => ({
      data: await retryDelivery(deps, { teamId: principal.teamId, subscriptionId: params.id, deliveryId: params.delivery_id }),
    }),
  }),
];
