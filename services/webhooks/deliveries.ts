import type { WebhookAttemptsRow } from '../../db/tables';
import type { WebhookDeliveriesRow } from '../../db/tables';
import type { Db } from '../../db/knex';
import { transactionWithOutbox } from '../../temporal/outbox';
import { conflict, notFound } from '../../core/errors';
import { paginate, type Page } from '../pagination';
import { recordEvent } from '../events/record';
import { createDeliveries, deliveryStart } from '../events/fan-out';
import { getSubscriptionRow } from './subscriptions';
import type { ServiceDeps } from '../deps';

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed', 'cancelled'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

type DeliveryRow = WebhookDeliveriesRow;

type AttemptRow = WebhookAttemptsRow;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function presentAttempt(a: AttemptRow) {
  return {
    id: a.id,
    attempt_number: a.attempt_number,
    trigger: a.trigger,
    attempted_at: iso(a.attempted_at),
    duration_ms: a.duration_ms,
    status_code: a.status_code,
    error: a.error,
    response_body: a.response_body,
    outcome: a.outcome ?? 'in_progress',
  };
}

function presentDelivery(d: DeliveryRow, attempts: AttemptRow[]) {
  let payload: unknown = d.body;
  try {
    payload = JSON.parse(d.body);
  } catch {
    // keep the raw text
  }
  return {
    id: d.id,
    webhook_id: d.id, // the X-Webhook-Id / webhook-id header value
    subscription_id: d.subscription_id,
    event_id: d.event_id,
    event_type: d.event_type,
    status: d.status,
    attempt_count: d.attempt_count,
    last_attempt_at: iso(d.last_attempt_at),
    next_attempt_at: iso(d.next_attempt_at),
    completed_at: iso(d.completed_at),
    created_at: iso(d.created_at),
    updated_at: iso(d.updated_at),
    payload,
    attempts: attempts.map(presentAttempt),
  };
}

async function withAttempts(db: Db, rows: DeliveryRow[]) {
  const ids = rows.map((r) => r.id);
  const attempts: AttemptRow[] = ids.length
    ? await db('webhook_attempts')
        .whereIn('delivery_id', ids)
        .orderBy([{ column: 'delivery_id' }, { column: 'attempt_number' }])
    : [];
  const by = new Map<string, AttemptRow[]>();
  for (const a of attempts) by.set(a.delivery_id, [...(by.get(a.delivery_id) ?? []), a]);
  return rows.map((r) => presentDelivery(r, by.get(r.id) ?? []));
}

export interface ListDeliveriesInput {
  teamId: string;
  subscriptionId: string;
  page: Page;
  status?: DeliveryStatus;
}

export async function listDeliveries(deps: Pick<ServiceDeps, 'db'>, { teamId, subscriptionId, page, status }: ListDeliveriesInput) {
  const { db } = deps;
  await getSubscriptionRow(deps, { teamId, id: subscriptionId });
  const base = db('webhook_deliveries').where({ team_id: teamId, subscription_id: subscriptionId });
  if (status) base.andWhere({ status });
  const result = await paginate(
    base.select('*'),
    page,
    [
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ],
    (r: DeliveryRow) => r,
  );
  return { data: await withAttempts(db, result.data), meta: result.meta };
}

export async function getDelivery(deps: Pick<ServiceDeps, 'db'>, { teamId, deliveryId }: { teamId: string; deliveryId: string }) {
  const { db } = deps;
  const row: DeliveryRow | undefined = await db('webhook_deliveries').where({ id: deliveryId, team_id: teamId }).first();
  if (!row) throw notFound('Delivery');
  return (await withAttempts(db, [row]))[0];
}

export interface RetryDeliveryInput {
  teamId: string;
  subscriptionId: string;
  deliveryId: string;
}

/**
 * Manual retry: a new delivery workflow (`…-retry-<n>`) with the full schedule, same body and
 * same X-Webhook-Id. Refused while a run is still pending, or while the subscription is disabled.
 */
export async function retryDelivery(deps: Pick<ServiceDeps, 'db' | 'outbox'>, { teamId, subscriptionId, deliveryId }: RetryDeliveryInput) {
  const { db, outbox } = deps;
  const sub = await getSubscriptionRow(deps, { teamId, id: subscriptionId });
  const existing = await db('webhook_deliveries').where({ id: deliveryId, team_id: teamId, subscription_id: subscriptionId }).first('id');
  if (!existing) throw notFound('Delivery');
  if (sub.status !== 'active') throw conflict('The webhook is disabled; enable it before retrying a delivery');
  await transactionWithOutbox(db, outbox, async (trx, enqueue) => {
    const [row]: DeliveryRow[] = await trx('webhook_deliveries')
      .where({ id: deliveryId })
      .whereNot({ status: 'pending' })
      .update({ status: 'pending', manual_retries: trx.raw('manual_retries + 1'), completed_at: null, updated_at: trx.fn.now() })
      .returning('*');
    if (!row) throw conflict('This delivery is still being attempted');
    await enqueue(
      deliveryStart(
        { deliveryId: row.id, subscriptionId: row.subscription_id, teamId, eventType: row.event_type, trigger: 'manual' },
        row.event_id,
        { url: sub.url, manualRetry: row.manual_retries },
      ),
    );
  });
  return getDelivery(deps, { teamId, deliveryId });
}

/** Send a `webhook.test` event to this one subscription. */
export async function sendTestEvent(
  deps: Pick<ServiceDeps, 'db' | 'outbox'>,
  { teamId, subscriptionId }: { teamId: string; subscriptionId: string },
) {
  const { db, outbox } = deps;
  const sub = await getSubscriptionRow(deps, { teamId, id: subscriptionId });
  if (sub.status !== 'active') throw conflict('The webhook is disabled; enable it before sending a test event');
  const deliveryId = await transactionWithOutbox(db, outbox, async (trx, enqueue) => {
    const event = await recordEvent(trx, enqueue, {
      teamId,
      type: 'webhook.test',
      formId: null,
      payload: {
        event: 'webhook.test',
        timestamp: new Date().toISOString(),
        data: { subscription_id: sub.id, message: 'This is a test event from your webhook settings.' },
      },
    });
    const [id] = await createDeliveries(trx, enqueue, { event, subscriptions: [sub], trigger: 'test' });
    return id;
  });
  return getDelivery(deps, { teamId, deliveryId });
}
