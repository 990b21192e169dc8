import type { DirectOutcome } from '../../temporal/outbox-direct';
import type { DeliveryWorkflowInput, DeliveryWorkflowState } from '../../workflows/webhooks/contract';
import type { ServiceDeps } from '../deps';
import { deliveryAttemptsOf } from './attempt';
import { releaseLostSlots } from './semaphore';

/**
 * How long a first attempt waits in this worker's per-endpoint queue. Longer than a workflow's
 * attempt (2 s): the row is leased (OUTBOX_LEASE_MS ≥ 25 s covers this wait, the Postgres slot
 * wait and the 5 s HTTP timeout), and a burst to one endpoint is better served in line here than
 * as retry workflows.
 */
const FIRST_ATTEMPT_QUEUE_MS = 10_000;

export interface FirstAttemptInput {
  /** The outbox row's workflow id (`webhook-<subscription>-<event>`), its lease number and the delivery it carries. */
  workflowId: string;
  lease: number;
  delivery: DeliveryWorkflowInput;
  /** Aborted shortly before the lease runs out. */
  signal: AbortSignal;
}

/**
 * The relay's first attempt of a webhook delivery, straight from its outbox row (docs/webhooks.md "First attempt"):
 * the same attempt as the workflow's (signature, attempt log, per-endpoint cap), under the
 * attempt key `<workflow id>:relay-<lease>`. A success (or a delivery with nothing left to do)
 * ends there: no workflow. A failure starts `webhook-<subscription>-<event>` carrying the schedule
 * on; an attempt that could not be made (no slot) starts it from the beginning.
 *
 * A lease after the first one means a worker was lost mid-attempt: its unfinished attempt row is
 * closed as lost and its slot freed, and the attempt is made again (same X-Webhook-Id: receivers
 * deduplicate).
 */
export async function makeFirstAttempt(
  deps: Pick<ServiceDeps, 'db' | 'config'>,
  input: FirstAttemptInput,
): Promise<DirectOutcome<'webhookDeliveryWorkflow'>> {
  const { db } = deps;
  const delivery = input.delivery;
  const prefix = `${input.workflowId}:relay-`;
  if (input.lease > 1) {
    await db('webhook_attempts')
      .where({ delivery_id: delivery.deliveryId })
      .whereNull('outcome')
      .where('attempt_key', 'like', `${prefix}%`)
      .update({ outcome: 'failure', error: 'the attempt did not finish: the worker was lost', finished_at: db.fn.now() });
    await releaseLostSlots(db, { subscriptionId: delivery.subscriptionId, holderPrefix: prefix });
  }
  const nowMs = Date.now();
  const r = await deliveryAttemptsOf(deps).attempt(
    {
      deliveryId: delivery.deliveryId,
      subscriptionId: delivery.subscriptionId,
      attemptKey: `${prefix}${input.lease}`,
      trigger: delivery.trigger === 'manual' ? 'manual' : 'scheduled',
      nowMs,
      retryIndex: 0,
      rand: Math.random(),
    },
    { signal: input.signal, queueWaitMs: FIRST_ATTEMPT_QUEUE_MS },
  );
  const state = (s: DeliveryWorkflowState): DirectOutcome<'webhookDeliveryWorkflow'> => ({ start: [delivery, s] });
  switch (r.outcome) {
    case 'success':
    case 'stopped':
      return { done: true };
    case 'throttled':
    case 'not_attempted':
      return { start: [delivery] };
    case 'gone':
      return state({ retryIndex: 0, seq: 0, finished: 'gone' });
    case 'failure':
      return r.nextDelayMs == null
        ? state({ retryIndex: 0, seq: 0, finished: 'failed' })
        : state({ retryIndex: 1, seq: 0, resumeAtMs: nowMs + r.nextDelayMs });
  }
}
