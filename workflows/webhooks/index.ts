import { continueAsNew, proxyLocalActivities, setCurrentDetails, sleep, workflowInfo } from '@temporalio/workflow';
import type { AttemptInput, AttemptResult, WebhookActivities } from '../../activities/webhooks';
import type { DeliveryWorkflowInput, DeliveryWorkflowState } from './contract';

export type { DeliveryWorkflowState } from './contract';
import { MAX_ATTEMPTS, throttleDelayMs } from '../../domain/webhook-retry';

// The HTTP attempt is never retried by Temporal: this workflow owns the schedule (with durable sleeps).
// It runs as a local activity, in the workflow task that reaches it: a delivery that succeeds at
// once costs one workflow task and no activity task round trips. A worker lost mid-attempt is
// safe: the replay runs the attempt again under the same attempt key, finds its row and records
// it as lost instead of sending again (docs/webhooks.md, "Delivery").
const { deliverWebhookAttempt } = proxyLocalActivities<Pick<WebhookActivities, 'deliverWebhookAttempt'>>({
  startToCloseTimeout: '20s',
  retry: { maximumAttempts: 1 },
});
// Bookkeeping after a lost attempt is plain database work: retried until it succeeds.
const { finishLostWebhookAttempt } = proxyLocalActivities<Pick<WebhookActivities, 'finishLostWebhookAttempt'>>({
  startToCloseTimeout: '20s',
  retry: { initialInterval: '1s', maximumInterval: '1m', backoffCoefficient: 2 },
});

/**
 * One delivery of one event to one subscription (`webhook-<subscription_id>-<event_id>`, or
 * `…-retry-<n>` for a manual retry). Attempts follow DESIGN.md's schedule with jitter; each
 * attempt's outcome (and the next wait) is decided and logged by the activity. In production the
 * worker's relay makes the first attempt itself and starts this workflow only when it fails (or
 * could not be made), with `state` carrying the schedule on from there.
 */
export async function webhookDeliveryWorkflow(
  input: DeliveryWorkflowInput,
  state: DeliveryWorkflowState = { retryIndex: 0, seq: 0 },
): Promise<string> {
  const { workflowId } = workflowInfo();
  // Current details (docs/operators.md): not a command, so recorded histories replay unchanged.
  const at = (ms: number) => new Date(Date.now() + ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
  setCurrentDetails(state.retryIndex > 0 ? `webhook: retry ${state.retryIndex} of ${MAX_ATTEMPTS - 1} starting` : 'webhook: first attempt');
  if (state.finished) return state.finished;
  let { retryIndex, seq } = state;
  let waits = 0;
  if (state.resumeAtMs !== undefined && state.resumeAtMs > Date.now()) await sleep(state.resumeAtMs - Date.now());
  for (;;) {
    if (workflowInfo().historyLength > 5000) await continueAsNew<typeof webhookDeliveryWorkflow>(input, { retryIndex, seq });
    seq += 1;
    const args: AttemptInput = {
      deliveryId: input.deliveryId,
      attemptKey: `${workflowId}:${seq}`,
      trigger: input.trigger === 'manual' ? 'manual' : 'scheduled',
      nowMs: Date.now(),
      retryIndex,
      rand: Math.random(),
    };
    let r: AttemptResult;
    try {
      r = await deliverWebhookAttempt(args);
    } catch (err) {
      r = await finishLostWebhookAttempt({
        ...args,
        error: err instanceof Error ? ((err.cause as Error | undefined)?.message ?? err.message) : String(err),
      });
    }
    if (r.outcome === 'throttled' || r.outcome === 'not_attempted') {
      const delay = throttleDelayMs(waits++, Math.random());
      setCurrentDetails(`webhook: endpoint busy (${r.outcome}), attempt again at ${at(delay)}`);
      await sleep(delay);
      continue;
    }
    waits = 0;
    const attempt = `attempt ${r.attemptNumber ?? seq} of ${MAX_ATTEMPTS}`;
    if (r.outcome !== 'failure' || r.nextDelayMs == null) {
      setCurrentDetails(
        `webhook: ${r.outcome === 'failure' ? `${attempt} failed (${r.error ?? 'error'}), no retries left` : `${r.outcome} (${attempt})`}`,
      );
      return r.outcome === 'failure' ? 'failed' : r.outcome;
    }
    setCurrentDetails(`webhook: ${attempt} failed (${r.error ?? 'error'}), next at ${at(r.nextDelayMs)}`);
    retryIndex += 1;
    await sleep(r.nextDelayMs);
  }
}
