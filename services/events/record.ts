import type { Executor } from '../../db/knex';
import type { Enqueue } from '../../temporal/outbox';
import type { DomainEvent, EventType } from '../../domain/events';
import { fanOutToWebhooks } from './fan-out';

export type { DomainEvent, EventType } from '../../domain/events';

/**
 * Record a domain event in the caller's transaction and fan it out (webhook deliveries are
 * started through the outbox, so a crash after the commit loses nothing). Use inside
 * `transactionWithOutbox(db, deps.outbox, (trx, enqueue) => …)`.
 */
export async function recordEvent(
  trx: Executor,
  enqueue: Enqueue,
  event: { teamId: string; type: EventType; formId?: string | null; payload: Record<string, unknown> },
): Promise<DomainEvent> {
  const [row] = await trx('events')
    .insert({ team_id: event.teamId, type: event.type, form_id: event.formId ?? null, payload: JSON.stringify(event.payload) })
    .returning(['id']);
  const stored: DomainEvent = { id: row.id, teamId: event.teamId, type: event.type, formId: event.formId ?? null, payload: event.payload };
  await fanOutToWebhooks(trx, enqueue, stored);
  return stored;
}

/**
 * A SQL condition (with its bindings) that holds when `recordEvent` would fan out to nothing for
 * this team: the team has no active webhook subscription (`fanOutToWebhooks` only ever delivers
 * to active subscriptions of the event's team). A hot path may then write its event rows itself in
 * one autocommit statement guarded by this condition (no transaction, no subscription query); when
 * the condition does not hold it must write nothing and go through `recordEvent` in a transaction
 * with the outbox instead. Uses `webhook_subscriptions_active_idx`.
 */
export function noWebhookFanOutSql(teamId: string): { sql: string; bindings: unknown[] } {
  return {
    sql: `NOT EXISTS (SELECT 1 FROM webhook_subscriptions WHERE team_id = ? AND status = 'active')`,
    bindings: [teamId],
  };
}
