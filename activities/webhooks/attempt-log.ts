import type { Db, Executor } from '../../db/knex';
import { retryDelayMs, shouldDisableForFailures, type AttemptClass } from '../../domain/webhook-retry';

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

/** Start an attempt row; returns its number. */
export async function openAttempt(
  db: Db,
  d: { id: string; team_id: string },
  attemptKey: string,
  trigger: string,
  nowMs: number,
): Promise<number> {
  return db.transaction(async (trx) => {
    const [row] = await trx('webhook_deliveries')
      .where({ id: d.id })
      .update({ attempt_count: trx.raw('attempt_count + 1'), last_attempt_at: new Date(nowMs), updated_at: trx.fn.now() })
      .returning('attempt_count');
    await trx('webhook_attempts').insert({
      team_id: d.team_id,
      delivery_id: d.id,
      attempt_number: row.attempt_count,
      attempt_key: attemptKey,
      trigger,
      attempted_at: new Date(nowMs),
    });
    return row.attempt_count as number;
  });
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
 * Finish an attempt row and apply its consequences: the delivery's status and next attempt time,
 * the subscription's failure run (a success resets it; 5 days of failures or a 410 disables it).
 * Returns the wait before the next retry, or null when this run is over.
 */
export async function closeAttempt(
  db: Db,
  d: { id: string; subscription_id: string },
  attemptKey: string,
  o: AttemptOutcome,
  s: ScheduleInput,
): Promise<number | null> {
  const nextDelayMs = o.outcome === 'failure' ? retryDelayMs(s.retryIndex, s.rand, o.retryAfterMs) : null;
  await db.transaction(async (trx) => {
    await trx('webhook_attempts').where({ attempt_key: attemptKey }).update({
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
  });
  return nextDelayMs;
}
