import { Context } from '@temporalio/activity';
import { resolveDeliveryTarget } from '../../services/webhooks/resolve';
import { webhookUrlPolicy } from '../../core/config';
import { parseRetryAfter, classifyStatus } from '../../domain/webhook-retry';
import { signatureHeaders } from '../../domain/webhook-signature';
import type { ActivityDeps } from '../deps';
import { closeAttempt, openAttempt, type AttemptOutcome, type ScheduleInput } from './attempt-log';
import { postPinned } from './http';
import { EndpointGate } from './gate';
import { acquireSlot, releaseSlot } from './semaphore';

/** The receiver has this long to answer with a 2xx (spec: 5 seconds). */
export const DELIVERY_TIMEOUT_MS = 5000;
/** A slot held by a worker that died is freed after this long. */
const LEASE_MS = 60_000;
/** How long an attempt waits in the worker for a free slot before the workflow sleeps instead. */
const SLOT_WAIT_MS = 2000;

export interface AttemptInput extends ScheduleInput {
  deliveryId: string;
  /** Unique per attempt: `<workflow id>:<n>`. */
  attemptKey: string;
  trigger: string;
}

export interface AttemptResult {
  /** `throttled`: no concurrency slot free; `not_attempted`: nothing was sent; `stopped`: nothing left to do. */
  outcome: 'success' | 'failure' | 'gone' | 'stopped' | 'throttled' | 'not_attempted';
  /** Wait before the next retry; null when the run is over. */
  nextDelayMs: number | null;
  attemptNumber?: number;
}

interface DeliveryJoin {
  id: string;
  team_id: string;
  subscription_id: string;
  event_type: string;
  body: string;
  status: string;
  url: string;
  sub_status: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  /** An attempt row under this attempt key exists already (a replay after a lost worker). */
  replayed?: boolean;
}

const errorText = (err: unknown) => {
  const e = err as { code?: string; message?: string };
  return [e.code, e.message ?? String(err)].filter(Boolean).join(': ');
};

/** Activities of the webhooks feature. */
export function webhooksActivities(deps: ActivityDeps) {
  const { db, config } = deps;

  const gate = new EndpointGate(config.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT, SLOT_WAIT_MS);

  /** The delivery and its subscription (and, given an attempt key, whether that attempt exists) in one query. */
  async function load(deliveryId: string, attemptKey?: string): Promise<DeliveryJoin | undefined> {
    const q = db('webhook_deliveries as d').join('webhook_subscriptions as s', 's.id', 'd.subscription_id').where('d.id', deliveryId);
    if (attemptKey) q.select(db.raw('exists (select 1 from webhook_attempts a where a.attempt_key = ?) as replayed', [attemptKey]));
    return q.first(
      'd.id',
      'd.team_id',
      'd.subscription_id',
      'd.event_type',
      'd.body',
      'd.status',
      's.url',
      { sub_status: 's.status' },
      's.secret',
      's.previous_secret',
      's.previous_secret_expires_at',
    );
  }

  async function send(d: DeliveryJoin): Promise<AttemptOutcome> {
    const started = Date.now();
    try {
      const target = await resolveDeliveryTarget(d.url, webhookUrlPolicy(config));
      const previous =
        d.previous_secret && d.previous_secret_expires_at && d.previous_secret_expires_at.getTime() > Date.now() ? d.previous_secret : null;
      const headers = {
        'content-type': 'application/json',
        'user-agent': 'FSS-Webhooks/1.0',
        ...signatureHeaders({
          msgId: d.id,
          eventType: d.event_type,
          timestampSec: Math.floor(Date.now() / 1000),
          body: d.body,
          secret: d.secret,
          previousSecret: previous,
        }),
      };
      const res = await postPinned(target, headers, d.body, {
        timeoutMs: DELIVERY_TIMEOUT_MS,
        signal: Context.current().cancellationSignal,
      });
      const outcome = classifyStatus(res.status);
      const retryAfter = res.headers['retry-after'];
      return {
        outcome,
        statusCode: res.status,
        error: outcome === 'success' ? null : `HTTP ${res.status}`,
        responseBody: res.body,
        durationMs: Date.now() - started,
        retryAfterMs: parseRetryAfter(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter, Date.now()),
      };
    } catch (err) {
      if (Context.current().cancellationSignal.aborted) throw err; // the workflow finishes the row
      return {
        outcome: 'failure',
        statusCode: null,
        error: errorText(err),
        responseBody: null,
        durationMs: Date.now() - started,
        retryAfterMs: null,
      };
    }
  }

  return {
    /**
     * One HTTP attempt of a delivery (never retried by Temporal: the workflow owns the schedule).
     * Takes a per-endpoint concurrency slot first: queued in this worker (up to SLOT_WAIT_MS), then
     * leased in Postgres (polled up to SLOT_WAIT_MS more); answers `throttled` when none came free.
     */
    async deliverWebhookAttempt(input: AttemptInput): Promise<AttemptResult> {
      const d = await load(input.deliveryId, input.attemptKey);
      if (!d || d.status !== 'pending') return { outcome: 'stopped', nextDelayMs: null };
      if (d.sub_status !== 'active') {
        await db('webhook_deliveries')
          .where({ id: d.id, status: 'pending' })
          .update({ status: 'cancelled', next_attempt_at: null, completed_at: new Date(input.nowMs), updated_at: db.fn.now() });
        return { outcome: 'stopped', nextDelayMs: null };
      }
      // A replay after a lost worker runs the same attempt key again: finish that row, never resend under it.
      if (d.replayed) return finishLost({ ...input, error: 'the worker was lost' });
      const attempted = await gate.run(d.subscription_id, async (): Promise<AttemptResult | null> => {
        if (!(await waitForSlot(d.subscription_id, input.attemptKey))) return null;
        try {
          const attemptNumber = await openAttempt(db, d, input.attemptKey, input.trigger, input.nowMs);
          const o = await send(d);
          const nextDelayMs = await closeAttempt(db, d, input.attemptKey, o, input);
          return { outcome: o.outcome, nextDelayMs, attemptNumber };
        } finally {
          await releaseSlot(db, d.subscription_id, input.attemptKey);
        }
      });
      return attempted ?? { outcome: 'throttled', nextDelayMs: null };
    },

    /**
     * After `deliverWebhookAttempt` itself failed (worker lost, timeout): finish its row as a
     * failed attempt, or report that nothing was sent. Idempotent.
     */
    finishLostWebhookAttempt: (input: AttemptInput & { error: string }) => finishLost(input),
  };

  /** Finish the row of an attempt that did not complete (idempotent), or report that nothing was sent. */
  async function finishLost(input: AttemptInput & { error: string }): Promise<AttemptResult> {
    const d = await load(input.deliveryId);
    const row = await db('webhook_attempts').where({ attempt_key: input.attemptKey }).first('outcome', 'attempt_number');
    if (d) await releaseSlot(db, d.subscription_id, input.attemptKey);
    if (!d) return { outcome: 'stopped', nextDelayMs: null };
    if (!row) return { outcome: 'not_attempted', nextDelayMs: null };
    if (row.outcome) {
      const r = await db('webhook_deliveries').where({ id: d.id }).first('status', 'next_attempt_at');
      const nextDelayMs = r?.status === 'pending' && r.next_attempt_at ? Math.max(0, r.next_attempt_at.getTime() - input.nowMs) : null;
      return { outcome: row.outcome, nextDelayMs, attemptNumber: row.attempt_number };
    }
    const o: AttemptOutcome = {
      outcome: 'failure',
      statusCode: null,
      error: `the attempt did not finish: ${input.error}`,
      responseBody: null,
      durationMs: null,
      retryAfterMs: null,
    };
    const nextDelayMs = await closeAttempt(db, d, input.attemptKey, o, input);
    return { outcome: 'failure', nextDelayMs, attemptNumber: row.attempt_number };
  }

  /**
   * Wait briefly for a concurrency slot (polling with jitter), so that a burst queues here rather
   * than as workflow timers; after SLOT_WAIT_MS the workflow backs off with a durable sleep.
   */
  async function waitForSlot(subscriptionId: string, holder: string): Promise<boolean> {
    const until = Date.now() + SLOT_WAIT_MS;
    for (let i = 0; ; i++) {
      if (await acquireSlot(db, subscriptionId, holder, config.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT, LEASE_MS)) return true;
      if (Date.now() >= until || Context.current().cancellationSignal.aborted) return false;
      await new Promise((r) => setTimeout(r, Math.min(10 * 2 ** i, 100) * (0.5 + Math.random())));
    }
  }
}

export type WebhookActivities = ReturnType<typeof webhooksActivities>;
