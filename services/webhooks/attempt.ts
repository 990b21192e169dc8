import { resolveDeliveryTarget } from '../../core/outbound-http';
import { webhookUrlPolicy } from '../../core/config';
import { parseRetryAfter, classifyStatus } from '../../domain/webhook-retry';
import { signatureHeaders } from '../../domain/webhook-signature';
import type { ServiceDeps } from '../deps';
import { closeAttempt, openAttempt, type AttemptOutcome, type ScheduleInput } from './attempt-log';
import { postPinned } from '../../core/outbound-http';
import { EndpointGate } from './gate';
import { acquireSlot, releaseSlot } from './semaphore';
import { openWebhookSecret } from './secrets';

/** The receiver has this long to answer with a 2xx (spec: 5 seconds). */
export const DELIVERY_TIMEOUT_MS = 5000;
/** A slot held by a worker that died is freed after this long. */
const LEASE_MS = 60_000;
/** How long an attempt waits for a free slot in Postgres (after its turn in the worker's queue). */
const SLOT_WAIT_MS = 2000;

export interface AttemptInput extends ScheduleInput {
  deliveryId: string;
  /** Unique per attempt: `<workflow id>:<n>` (workflow), `<workflow id>:relay-<lease>` (relay). */
  attemptKey: string;
  trigger: string;
  /** The delivery's subscription, when the caller knows it: the attempt then queues before any read. */
  subscriptionId?: string;
}

export interface AttemptResult {
  /** `throttled`: no concurrency slot free; `not_attempted`: nothing was sent; `stopped`: nothing left to do. */
  outcome: 'success' | 'failure' | 'gone' | 'stopped' | 'throttled' | 'not_attempted';
  /** Wait before the next retry; null when the run is over. */
  nextDelayMs: number | null;
  attemptNumber?: number;
  /** What failed (`HTTP 503`, a network error), for the workflow's current details; absent in older results. */
  error?: string | null;
}

export interface AttemptOptions {
  /** Aborts the HTTP request and the slot wait (the activity's cancellation, the relay's lease). */
  signal?: AbortSignal;
  /** How long to wait in this worker's per-endpoint queue (default 2 s). */
  queueWaitMs?: number;
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
  secret_enc: string;
  previous_secret_enc: string | null;
  previous_secret_expires_at: Date | null;
  /** An attempt row under this attempt key exists already (a replay after a lost worker). */
  replayed?: boolean;
  /** The endpoint slot was taken (and the attempt opened) by the load itself (loadAndOpen). */
  slot?: boolean;
}

const errorText = (err: unknown) => {
  const e = err as { code?: string; message?: string };
  return [e.code, e.message ?? String(err)].filter(Boolean).join(': ');
};

/**
 * One attempt of a delivery, shared by the delivery workflow's activity and the relay's first
 * attempt: the same load, per-endpoint cap (this worker's FIFO queue, then the Postgres lease),
 * signature, attempt log and schedule. One per worker process (the queue is per process).
 */
export function createDeliveryAttempts(deps: Pick<ServiceDeps, 'db' | 'config'>) {
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
      's.secret_enc',
      's.previous_secret_enc',
      's.previous_secret_expires_at',
    );
  }

  /**
   * The common case of a queued attempt in one statement: read the delivery and its subscription,
   * and when there is something to send, take the endpoint's Postgres slot and open the attempt
   * row (counted on the delivery). `slot` and `attempt_number` say how far it got.
   */
  async function loadAndOpen(input: AttemptInput): Promise<(DeliveryJoin & { attempt_number: number | null }) | undefined> {
    const r = await db.raw(
      `with j as materialized (
         select d.id, d.team_id, d.subscription_id, d.event_type, d.body, d.status, s.url, s.status as sub_status, s.secret_enc,
                s.previous_secret_enc, s.previous_secret_expires_at,
                exists (select 1 from webhook_attempts a where a.attempt_key = ?) as replayed
           from webhook_deliveries d join webhook_subscriptions s on s.id = d.subscription_id
          where d.id = ?
       ), k as materialized (
         select j.*, case when j.status = 'pending' and j.sub_status = 'active' and not j.replayed
                          then webhook_acquire_slot(j.subscription_id, ?, ?, ?) else false end as slot
           from j
       ), o as (
         update webhook_deliveries w set attempt_count = w.attempt_count + 1, last_attempt_at = ?, updated_at = now()
           from k where w.id = k.id and k.slot
         returning w.attempt_count
       ), ins as (
         insert into webhook_attempts (team_id, delivery_id, attempt_number, attempt_key, trigger, attempted_at)
         select k.team_id, k.id, o.attempt_count, ?, ?, ? from k, o
         returning attempt_number
       )
       select k.*, (select attempt_number from ins) as attempt_number from k`,
      [
        input.attemptKey,
        input.deliveryId,
        input.attemptKey,
        config.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT,
        LEASE_MS,
        new Date(input.nowMs),
        input.attemptKey,
        input.trigger,
        new Date(input.nowMs),
      ],
    );
    return r.rows[0];
  }

  async function send(d: DeliveryJoin, signal?: AbortSignal): Promise<AttemptOutcome> {
    const started = Date.now();
    try {
      const target = await resolveDeliveryTarget(d.url, webhookUrlPolicy(config));
      const previous =
        d.previous_secret_enc && d.previous_secret_expires_at && d.previous_secret_expires_at.getTime() > Date.now()
          ? openWebhookSecret(config, { id: d.subscription_id, sealed: d.previous_secret_enc, which: 'previous' })
          : null;
      const headers = {
        'content-type': 'application/json',
        'user-agent': 'FSS-Webhooks/1.0',
        ...signatureHeaders({
          msgId: d.id,
          eventType: d.event_type,
          timestampSec: Math.floor(Date.now() / 1000),
          body: d.body,
          secret: openWebhookSecret(config, { id: d.subscription_id, sealed: d.secret_enc, which: 'current' }),
          previousSecret: previous,
        }),
      };
      const res = await postPinned(target, headers, d.body, { timeoutMs: DELIVERY_TIMEOUT_MS, signal });
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
      if (signal?.aborted) throw err; // the caller finishes the row
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

  /**
   * Wait briefly for a concurrency slot (polling with jitter), so that a burst queues here rather
   * than as workflow timers; after SLOT_WAIT_MS the caller backs off durably.
   */
  async function waitForSlot(subscriptionId: string, holder: string, signal?: AbortSignal): Promise<boolean> {
    const until = Date.now() + SLOT_WAIT_MS;
    for (let i = 0; ; i++) {
      if (await acquireSlot(db, { subscriptionId, holder, max: config.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT, leaseMs: LEASE_MS })) return true;
      if (Date.now() >= until || signal?.aborted) return false;
      await new Promise((r) => setTimeout(r, Math.min(10 * 2 ** i, 100) * (0.5 + Math.random())));
    }
  }

  /** Finish the row of an attempt that did not complete (idempotent), or report that nothing was sent. */
  async function finishLost(input: AttemptInput & { error: string }): Promise<AttemptResult> {
    const d = await load(input.deliveryId);
    const row = await db('webhook_attempts').where({ attempt_key: input.attemptKey }).first('outcome', 'attempt_number');
    if (d) await releaseSlot(db, { subscriptionId: d.subscription_id, holder: input.attemptKey });
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
    const nextDelayMs = await closeAttempt(db, { delivery: d, attemptKey: input.attemptKey, outcome: o, schedule: input });
    return { outcome: 'failure', nextDelayMs, attemptNumber: row.attempt_number, error: `the attempt did not finish: ${input.error}` };
  }

  /**
   * One HTTP attempt of a delivery. Takes a per-endpoint concurrency slot first: queued in this
   * worker (up to `queueWaitMs`), then leased in Postgres (polled up to SLOT_WAIT_MS more);
   * answers `throttled` when none came free. A replay of a known attempt key finishes that row as
   * lost instead of sending again.
   */
  async function attempt(input: AttemptInput, opts: AttemptOptions = {}): Promise<AttemptResult> {
    const throttled: AttemptResult = { outcome: 'throttled', nextDelayMs: null };
    // Known endpoint (the relay's attempts): queue first, so that a burst waiting in line holds
    // no database connection; the delivery is read once its turn has come.
    if (input.subscriptionId) {
      const r = await gate.run(
        input.subscriptionId,
        async () => {
          const d = await prepare(input, true);
          return 'outcome' in d ? d : inSlot(d, input, opts, d.attempt_number ?? undefined);
        },
        opts.queueWaitMs,
      );
      return r ?? throttled;
    }
    const d = await prepare(input);
    if ('outcome' in d) return d;
    return (await gate.run(d.subscription_id, () => inSlot(d, input, opts), opts.queueWaitMs)) ?? throttled;
  }

  /** Read the delivery; answer at once when there is nothing to send (or the key is a replay). */
  async function prepare(input: AttemptInput, open = false): Promise<(DeliveryJoin & { attempt_number?: number | null }) | AttemptResult> {
    const d = open ? await loadAndOpen(input) : await load(input.deliveryId, input.attemptKey);
    if (!d || d.status !== 'pending') return { outcome: 'stopped', nextDelayMs: null };
    if (d.sub_status !== 'active') {
      await db('webhook_deliveries')
        .where({ id: d.id, status: 'pending' })
        .update({ status: 'cancelled', next_attempt_at: null, completed_at: new Date(input.nowMs), updated_at: db.fn.now() });
      return { outcome: 'stopped', nextDelayMs: null };
    }
    if (d.replayed) return finishLost({ ...input, error: 'the worker was lost' });
    return d;
  }

  /** Holding this worker's endpoint slot: take the Postgres lease, then open, send and close the attempt. */
  async function inSlot(d: DeliveryJoin, input: AttemptInput, opts: AttemptOptions, opened?: number): Promise<AttemptResult | null> {
    if (!d.slot && !(await waitForSlot(d.subscription_id, input.attemptKey, opts.signal))) return null;
    let closed = false;
    try {
      const attemptNumber =
        opened ?? (await openAttempt(db, { delivery: d, attemptKey: input.attemptKey, trigger: input.trigger, nowMs: input.nowMs }));
      const o = await send(d, opts.signal);
      const nextDelayMs = await closeAttempt(db, { delivery: d, attemptKey: input.attemptKey, outcome: o, schedule: input }); // releases the slot too
      closed = true;
      return { outcome: o.outcome, nextDelayMs, attemptNumber, error: o.error };
    } finally {
      if (!closed) await releaseSlot(db, { subscriptionId: d.subscription_id, holder: input.attemptKey });
    }
  }

  return { attempt, finishLost };
}

export type DeliveryAttempts = ReturnType<typeof createDeliveryAttempts>;

const perDeps = new WeakMap<object, DeliveryAttempts>();

/** The one `DeliveryAttempts` of these deps (the activities and the relay share its queue). */
export function deliveryAttemptsOf(deps: Pick<ServiceDeps, 'db' | 'config'>): DeliveryAttempts {
  let a = perDeps.get(deps);
  if (!a) perDeps.set(deps, (a = createDeliveryAttempts(deps)));
  return a;
}

/**
 * The delivery workflow's attempt (docs/webhooks.md "Delivery"): one HTTP attempt under a
 * per-endpoint slot; `signal` is the activity's cancellation.
 */
export function deliverWebhookAttempt(
  deps: Pick<ServiceDeps, 'db' | 'config'>,
  input: AttemptInput & { signal?: AbortSignal },
): Promise<AttemptResult> {
  const { signal, ...attempt } = input;
  return deliveryAttemptsOf(deps).attempt(attempt, { signal });
}

/** After an attempt itself failed (worker lost, timeout): finish its row as failed, or report that nothing was sent. Idempotent. */
export function finishLostWebhookAttempt(
  deps: Pick<ServiceDeps, 'db' | 'config'>,
  input: AttemptInput & { error: string },
): Promise<AttemptResult> {
  return deliveryAttemptsOf(deps).finishLost(input);
}
