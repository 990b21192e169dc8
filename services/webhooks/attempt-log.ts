import type { Db, Executor } from '../../db/knex';
import { retryDelayMs, shouldDisableForFailures, type AttemptClass } from '../../domain/webhook-retry';
import { webhookAttempts } from '../../core/metrics';

export interface AttemptOutcome {
  outcome: AttemptClass;
  statusCode: number | null;
  error: string | null;
  responseBody: string | null;
  durationMs: number | null;
  retryAfterMs: number | null;
}

export interface ScheduleInput {
  /** Workflow time of this attempt (ms): the log and the 5-day rule run on the workflow's clock. */
  nowMs: number;
  retryIndex: number;
  rand: number;
}

/** Start an attempt row (and count it on the delivery) in one statement; returns its number. */
export async function openAttempt(
  db: Db,
  {
    delivery: d,
    attemptKey,
    trigger,
    nowMs,
  }: { delivery: { id: string; team_id: string }; attemptKey: string; trigger: string; nowMs: number },
): Promise<number> {
  const at = new Date(nowMs);
  const r = await db.raw(
    `with d as (
       update webhook_deliveries set attempt_count = attempt_count + 1, last_attempt_at = ?, updated_at = now() where id = ? returning attempt_count
     )
     insert into webhook_attempts (team_id, delivery_id, attempt_number, attempt_key, trigger, attempted_at)
     select ?, ?, d.attempt_count, ?, ?, ? from d
     returning attempt_number`,
    [at, d.id, d.team_id, d.id, attemptKey, trigger, at],
  );
  return r.rows[0].attempt_number as number;
}

/**
 * The common case, a success, in one statement: the attempt row, the delivery, the endpoint slot
 * (released), and the end of the subscription's failure run. The subscription row is only written when something changes (or its
 * last success is older than a second), so that a burst to one endpoint does not queue on its row.
 */
async function closeSuccess(
  db: Db,
  d: { id: string; subscription_id: string },
  attemptKey: string,
  o: AttemptOutcome,
  nowMs: number,
): Promise<void> {
  const now = new Date(nowMs);
  await db.raw(
    `with a as (
       update webhook_attempts set outcome = 'success', status_code = ?, error = null, response_body = ?, duration_ms = ?, finished_at = now()
       where attempt_key = ?
     ), d as (
       update webhook_deliveries set status = 'succeeded', next_attempt_at = null, completed_at = ?, updated_at = now() where id = ?
     ), r as (
       delete from webhook_inflight where subscription_id = ? and holder = ?
     )
     update webhook_subscriptions set failing_since = null, last_success_at = ?
     where id = ? and (failing_since is not null or last_success_at is null or last_success_at < ?::timestamptz - interval '1 second')`,
    [o.statusCode, o.responseBody, o.durationMs, attemptKey, now, d.id, d.subscription_id, attemptKey, now, d.subscription_id, now],
  );
}

async function trackSubscription(trx: Executor, subscriptionId: string, outcome: AttemptClass, nowMs: number): Promise<void> {
  const now = new Date(nowMs);
  if (outcome === 'success') {
    await trx('webhook_subscriptions').where({ id: subscriptionId }).update({ failing_since: null, last_success_at: now });
    return;
  }
  if (outcome === 'gone') {
    await trx('webhook_subscriptions')
      .where({ id: subscriptionId, status: 'active' })
      .update({ status: 'disabled', disabled_reason: 'endpoint_gone', disabled_at: now, updated_at: trx.fn.now() });
    return;
  }
  const [row] = await trx('webhook_subscriptions')
    .where({ id: subscriptionId })
    .update({ failing_since: trx.raw('coalesce(failing_since, ?)', [now]) })
    .returning(['failing_since', 'status']);
  if (row && row.status === 'active' && shouldDisableForFailures(row.failing_since?.getTime() ?? null, nowMs)) {
    await trx('webhook_subscriptions')
      .where({ id: subscriptionId, status: 'active' })
      .update({ status: 'disabled', disabled_reason: 'failing_5_days', disabled_at: now, updated_at: trx.fn.now() });
  }
}

/**
 * Finish an attempt row, release its endpoint slot (held under the attempt key), and apply its consequences: the delivery's status and next attempt time,
 * the subscription's failure run (a success resets it; 5 days of failures or a 410 disables it).
 * Returns the wait before the next retry, or null when this run is over.
 */
export async function closeAttempt(
  db: Db,
  {
    delivery: d,
    attemptKey,
    outcome: o,
    schedule: s,
  }: { delivery: { id: string; subscription_id: string }; attemptKey: string; outcome: AttemptOutcome; schedule: ScheduleInput },
): Promise<number | null> {
  if (o.outcome === 'success') {
    await closeSuccess(db, d, attemptKey, o, s.nowMs);
    webhookAttempts.inc({ outcome: o.outcome });
    return null;
  }
  const nextDelayMs = o.outcome === 'failure' ? retryDelayMs(s.retryIndex, s.rand, o.retryAfterMs) : null;
  await db.transaction(async (trx) => {
    await trx('webhook_attempts')
      .where({ attempt_key: attemptKey })
      .update({
        outcome: o.outcome,
        status_code: o.statusCode,
        error: o.error?.slice(0, 1000) ?? null,
        response_body: o.responseBody,
        duration_ms: o.durationMs,
        finished_at: trx.fn.now(),
      });
    const status = o.outcome === 'success' ? 'succeeded' : nextDelayMs == null ? 'failed' : 'pending';
    await trx('webhook_deliveries')
      .where({ id: d.id })
      .update({
        status,
        next_attempt_at: nextDelayMs == null ? null : new Date(s.nowMs + nextDelayMs),
        completed_at: status === 'pending' ? null : new Date(s.nowMs),
        updated_at: trx.fn.now(),
      });
    await trackSubscription(trx, d.subscription_id, o.outcome, s.nowMs);
    await trx('webhook_inflight').where({ subscription_id: d.subscription_id, holder: attemptKey }).delete();
  });
  webhookAttempts.inc({ outcome: o.outcome });
  return nextDelayMs;
}
