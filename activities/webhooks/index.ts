import { Context } from '@temporalio/activity';
import type { ActivityDeps } from '../deps';
import { deliverWebhookAttempt, finishLostWebhookAttempt, type AttemptInput, type AttemptResult } from '../../services/webhooks/attempt';

export { DELIVERY_TIMEOUT_MS, type AttemptInput, type AttemptResult } from '../../services/webhooks/attempt';

/** Activities of the webhooks feature: adapters of the attempt use cases (services/webhooks/attempt.ts, shared with the relay). */
export function webhooksActivities(deps: ActivityDeps) {
  return {
    /**
     * One HTTP attempt of a delivery (never retried by Temporal: the workflow owns the schedule).
     * Takes a per-endpoint concurrency slot first: queued in this worker (up to 2 s), then leased
     * in Postgres (polled up to 2 s more); answers `throttled` when none came free.
     */
    deliverWebhookAttempt: (input: AttemptInput): Promise<AttemptResult> =>
      deliverWebhookAttempt(deps, { ...input, signal: Context.current().cancellationSignal }),

    /**
     * After `deliverWebhookAttempt` itself failed (worker lost, timeout): finish its row as a
     * failed attempt, or report that nothing was sent. Idempotent.
     */
    finishLostWebhookAttempt: (input: AttemptInput & { error: string }) => finishLostWebhookAttempt(deps, input),
  };
}

export type WebhookActivities = ReturnType<typeof webhooksActivities>;
