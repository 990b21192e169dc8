import type { Executor } from '../../db/knex';
import type { Enqueue, WorkflowStart } from '../../temporal/outbox';
import { deliveryWorkflowId, type DeliveryWorkflowInput } from '../../workflows/webhooks/contract';
import type { DomainEvent } from '../../domain/events';

export function deliveryStart(input: DeliveryWorkflowInput, eventId: string, manualRetry = 0): WorkflowStart<'webhookDeliveryWorkflow'> {
  return {
    workflowType: 'webhookDeliveryWorkflow',
    workflowId: deliveryWorkflowId(input.subscriptionId, eventId, manualRetry),
    args: [input],
    searchAttributes: { TeamId: input.teamId, SubscriptionId: input.subscriptionId, EventType: input.eventType },
    memo: { deliveryId: input.deliveryId },
  };
}

export interface CreateDeliveriesInput {
  event: DomainEvent;
  subscriptionIds: string[];
  trigger: DeliveryWorkflowInput['trigger'];
}

/** Insert one delivery row per subscription and enqueue its workflow, in the caller's transaction. */
export async function createDeliveries(trx: Executor, enqueue: Enqueue, input: CreateDeliveriesInput): Promise<string[]> {
  const { event, subscriptionIds, trigger } = input;
  if (subscriptionIds.length === 0) return [];
  const body = JSON.stringify(event.payload);
  const rows: Array<{ id: string; subscription_id: string }> = await trx('webhook_deliveries')
    .insert(
      subscriptionIds.map((sid) => ({ team_id: event.teamId, subscription_id: sid, event_id: event.id, event_type: event.type, body })),
    )
    .returning(['id', 'subscription_id']);
  // One multi-row outbox INSERT for all of them.
  await enqueue(
    rows.map((row) =>
      deliveryStart(
        { deliveryId: row.id, subscriptionId: row.subscription_id, teamId: event.teamId, eventType: event.type, trigger },
        event.id,
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
  const subs: Array<{ id: string }> = await q.select('id');
  await createDeliveries(trx, enqueue, { event, subscriptionIds: subs.map((s) => s.id), trigger: 'event' });
}
