import { z } from 'zod';
import { paginationQuery } from '../../../services/pagination';
import { dataOf, listOf } from '../../../services/envelope';
import { zText, zUuid } from '../../../core/validate';
import { DELIVERY_STATUSES } from '../../../services/webhooks/deliveries';
import { zDelivery, zSubscription, zSubscriptionWithSecret } from '../../../services/webhooks/present-schemas';
import { WEBHOOK_EVENTS } from '../../../services/webhooks/subscriptions';

/** Request and answer schemas of the webhook routes. */

const fields = {
  url: z.string().trim().min(1).max(2048).meta({ example: 'https://hooks.example.com/forms' }),
  events: z
    .array(z.enum(WEBHOOK_EVENTS))
    .min(1)
    .max(WEBHOOK_EVENTS.length * 4),
  form_id: zUuid.nullable(),
  description: zText(500),
  status: z.enum(['active', 'disabled']),
};

export const createBody = z.strictObject({
  url: fields.url,
  events: fields.events,
  form_id: fields.form_id.optional(),
  description: fields.description.optional(),
  status: fields.status.optional(),
});
export const updateBody = createBody.partial();
export const listQuery = z.object({ ...paginationQuery, status: fields.status.optional() });
export const deliveryListQuery = z.object({ ...paginationQuery, status: z.enum(DELIVERY_STATUSES).optional() });
export const deliveryParams = z.strictObject({ id: zUuid, delivery_id: zUuid });

export const subscriptionAnswer = dataOf(zSubscription);
export const subscriptionWithSecretAnswer = dataOf(zSubscriptionWithSecret);
export const subscriptionList = listOf(zSubscription);
export const deliveryList = listOf(zDelivery);
export const deliveryAnswer = dataOf(zDelivery);
