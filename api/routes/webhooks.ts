import { z } from 'zod';
import { webhookUrlPolicy } from '../../core/config';
import { paginationQuery, toPage } from '../../services/pagination';
import { defineRoute, type RouteDef } from '../http/route';
import { zIdParams, zText, zUuid } from '../../core/validate';
import { DELIVERY_STATUSES, listDeliveries, retryDelivery, sendTestEvent } from '../../services/webhooks/deliveries';
import {
  createSubscription,
  deleteSubscription,
  getSubscriptionRow,
  listSubscriptions,
  presentSubscription,
  rotateSecret,
  updateSubscription,
  WEBHOOK_EVENTS,
} from '../../services/webhooks/subscriptions';

const tags = ['webhooks'];
const read = { scope: 'webhooks:read' } as const;
const write = { scope: 'webhooks:write' } as const;

const fields = {
  url: z.string().trim().min(1).max(2048),
  events: z
    .array(z.enum(WEBHOOK_EVENTS))
    .min(1)
    .max(WEBHOOK_EVENTS.length * 4),
  form_id: zUuid.nullable(),
  description: zText(500),
  status: z.enum(['active', 'disabled']),
};

const createBody = z.strictObject({
  url: fields.url,
  events: fields.events,
  form_id: fields.form_id.optional(),
  description: fields.description.optional(),
  status: fields.status.optional(),
});
const updateBody = createBody.partial();

export const webhooksRoutes: RouteDef[] = [
  defineRoute({
    method: 'get',
    path: '/api/v1/webhooks',
    auth: read,
    summary: 'List webhook subscriptions',
    tags,
    query: z.object({ ...paginationQuery, status: fields.status.optional() }),
    handler: async ({ query, principal, deps }) => listSubscriptions(deps.db, principal.teamId, toPage(query), query.status),
  }),
  defineRoute({
    method: 'post',
    path: '/api/v1/webhooks',
    auth: write,
    summary: 'Create a webhook subscription; the signing secret is in this response only',
    tags,
    body: createBody,
    status: 201,
    idempotent: true,
    handler: async ({ body, principal, deps }) => ({
      data: await createSubscription(deps.db, principal.teamId, body, webhookUrlPolicy(deps.config)),
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/v1/webhooks/:id',
    auth: read,
    summary: 'Read a webhook subscription',
    tags,
    params: zIdParams,
    handler: async ({ params, principal, deps }) => ({
      data: presentSubscription(await getSubscriptionRow(deps.db, principal.teamId, params.id)),
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
    handler: async ({ params, body, principal, deps }) => ({
      data: await updateSubscription(deps.db, principal.teamId, params.id, body, webhookUrlPolicy(deps.config)),
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
    handler: async ({ params, principal, deps }) => deleteSubscription(deps.db, principal.teamId, params.id),
  }),
  defineRoute({
    method: 'post',
    path: '/api/v1/webhooks/:id/rotate-secret',
    auth: write,
    summary: 'Replace the signing secret; the old one keeps signing beside it for 24 h',
    tags,
    params: zIdParams,
    handler: async ({ params, principal, deps }) => ({ data: await rotateSecret(deps.db, principal.teamId, params.id) }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/v1/webhooks/:id/test',
    auth: write,
    summary: 'Send a webhook.test event to this subscription',
    tags,
    params: zIdParams,
    status: 202,
    handler: async ({ params, principal, deps }) => ({ data: await sendTestEvent(deps.db, deps.outbox, principal.teamId, params.id) }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/v1/webhooks/:id/deliveries',
    auth: read,
    summary: 'List deliveries, newest first, each with its attempts',
    tags,
    params: zIdParams,
    query: z.object({ ...paginationQuery, status: z.enum(DELIVERY_STATUSES).optional() }),
    handler: async ({ params, query, principal, deps }) =>
      listDeliveries(deps.db, principal.teamId, params.id, toPage(query), query.status),
  }),
  defineRoute({
    method: 'post',
    path: '/api/v1/webhooks/:id/deliveries/:delivery_id/retry',
    auth: write,
    summary: 'Deliver again (a new run of the full schedule, same X-Webhook-Id)',
    tags,
    params: z.strictObject({ id: zUuid, delivery_id: zUuid }),
    status: 202,
    handler: async ({ params, principal, deps }) => ({
      data: await retryDelivery(deps.db, deps.outbox, principal.teamId, params.id, params.delivery_id),
    }),
  }),
];
