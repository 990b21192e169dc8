import type { Executor } from '../../db/knex';
import type { Enqueue, WorkflowStart } from '../../temporal/outbox';
import { deliveryWorkflowId, type DeliveryWorkflowInput } from '../../workflows/webhooks/contract';
import type { DomainEvent } from '../../domain/events';
import { code, detailsMarkdown, oneLine, shortUrl, urlHost } from '../operators/metadata';

/** The delivery workflow's start, with its summary for operators (docs/operators.md). */
export function deliveryStart(
  input: DeliveryWorkflowInput,
  eventId: string,
  opts: { url: string; manualRetry?: number },
): WorkflowStart<'webhookDeliveryWorkflow'> {
  const { url, manualRetry = 0 } = opts;
  const host = urlHost(url);
  const retry = manualRetry > 0 ? ` (manual retry ${manualRetry})` : '';
  const sub = `/api/v1/webhooks/${input.subscriptionId}`;
  return {
    workflowType: 'webhookDeliveryWorkflow',
    workflowId: deliveryWorkflowId(input.subscriptionId, eventId, manualRetry),
    args: [input],
    searchAttributes: {
      TeamId: input.teamId,
      SubscriptionId: input.subscriptionId,
      EventType: input.eventType,
      ...(host ? { WebhookHost: host } : {}),
    },
    memo: { deliveryId: input.deliveryId },
    summary: oneLine(`Webhook ${input.eventType} → ${shortUrl(url)}${retry}`),
    details: detailsMarkdown(`Delivery of ${input.eventType} to ${shortUrl(url, 120)}`, [
      ['Delivery', `${code(input.deliveryId)} (${input.trigger})`],
      ['Event', code(eventId)],
      ['Subscription', `${code(input.subscriptionId)}: \`${sub}\``],
      ['Deliveries', `\`${sub}/deliveries\``],
      ['Team', code(input.teamId)],
    ]),
  };
}

export interface CreateDeliveriesInput {
  event: DomainEvent;
  subscriptions: Array<{ id: string; url: string }>;
  trigger: DeliveryWorkflowInput['trigger'];
}

/** Insert one delivery row per subscription and enqueue its workflow, in the caller's transaction. */
export async function createDeliveries(trx: Executor, enqueue: Enqueue, input: CreateDeliveriesInput): Promise<string[]> {
  const { event, subscriptions, trigger } = input;
  if (subscriptions.length === 0) return [];
  const urls = new Map(subscriptions.map((s) => [s.id, s.url]));
  const body = JSON.stringify(event.payload);
  const rows: Array<{ id: string; subscription_id: string }> = await trx('webhook_deliveries')
    .insert(
      subscriptions.map(({ id: sid }) => ({
        team_id: event.teamId,
        subscription_id: sid,
        event_id: event.id,
        event_type: event.type,
        body,
      })),
    )
    .returning(['id', 'subscription_id']);
  // One multi-row outbox INSERT for all of them.
  await enqueue(
    rows.map((row) =>
      deliveryStart(
        { deliveryId: row.id, subscriptionId: row.subscription_id, teamId: event.teamId, eventType: event.type, trigger },
        event.id,
        { url: urls.get(row.subscription_id)! },
      ),
    ),
  );
  return rows.map((r) => r.id);
}

/**
 * Inside the event's transaction: one delivery workflow start per matching active subscription
 * (its events include the type; its form_id is null or the event's form). `webhook.test` events
 * are delivered by the test endpoint to its one subscription only.
 */
export async function fanOutToWebhooks(trx: Executor, enqueue: Enqueue, event: DomainEvent): Promise<void> {
  if (event.type === 'webhook.test') return;
  const q = trx('webhook_subscriptions').where({ team_id: event.teamId, status: 'active' }).whereRaw('? = ANY(events)', [event.type]);
  if (event.formId) q.andWhere((w) => w.whereNull('form_id').orWhere('form_id', event.formId));
  else q.whereNull('form_id');
  const subs: Array<{ id: string; url: string }> = await q.select('id', 'url');
  await createDeliveries(trx, enqueue, { event, subscriptions: subs, trigger: 'event' });
}
