import { z } from 'zod';
import { zId, zIsoTime } from '../envelope';
import { DELIVERY_STATUSES } from './deliveries';
import { WEBHOOK_EVENTS } from './subscriptions';

/** Answer schemas of webhook subscriptions and deliveries: the shapes of presentSubscription and presentDelivery. */

export const zSubscription = z
  .strictObject({
    id: zId,
    url: z.string(),
    description: z.string(),
    events: z.array(z.enum(WEBHOOK_EVENTS)),
    form_id: zId.nullable(),
    status: z.enum(['active', 'disabled']),
    disabled_reason: z.string().nullable(),
    disabled_at: zIsoTime.nullable(),
    failing_since: zIsoTime.nullable(),
    last_success_at: zIsoTime.nullable(),
    previous_secret_expires_at: zIsoTime
      .nullable()
      .meta({ description: 'Until then the previous secret signs beside the new one (after a rotation)' }),
    created_at: zIsoTime,
    updated_at: zIsoTime,
  })
  .meta({ id: 'WebhookSubscription' });

export const zSubscriptionWithSecret = zSubscription
  .extend({ secret: z.string().meta({ description: 'The signing secret (whsec_…), shown in this response only' }) })
  .meta({ id: 'WebhookSubscriptionWithSecret' });

export const zAttempt = z
  .strictObject({
    id: zId,
    attempt_number: z.number().int(),
    trigger: z.string(),
    attempted_at: zIsoTime,
    duration_ms: z.number().int().nullable(),
    status_code: z.number().int().nullable(),
    error: z.string().nullable(),
    response_body: z.string().nullable(),
    outcome: z.string(),
  })
  .meta({ id: 'WebhookAttempt' });

export const zDelivery = z
  .strictObject({
    id: zId,
    webhook_id: zId.meta({ description: 'The X-Webhook-Id / webhook-id header value' }),
    subscription_id: zId,
    event_id: zId,
    event_type: z.string(),
    status: z.enum(DELIVERY_STATUSES),
    attempt_count: z.number().int(),
    last_attempt_at: zIsoTime.nullable(),
    next_attempt_at: zIsoTime.nullable(),
    completed_at: zIsoTime.nullable(),
    created_at: zIsoTime,
    updated_at: zIsoTime,
    payload: z.unknown().meta({ description: 'The body that is (or was) sent' }),
    attempts: z.array(zAttempt),
  })
  .meta({ id: 'WebhookDelivery' });
