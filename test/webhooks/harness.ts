import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { Worker, WorkerOptions } from '@temporalio/worker';
import { webhooksActivities } from '../../activities/webhooks';
import type { ActivityDeps } from '../../activities/deps';
import { recordEvent, type EventType } from '../../services/events/record';
import { createSubscription, type CreateInput } from '../../services/webhooks/subscriptions';
import { testConfig } from '../helpers/config';
import type { Db } from '../../db/knex';
import { OutboxStarter, transactionWithOutbox } from '../../temporal/outbox';
import { createTestWorker, createTimeSkippingEnv } from '../helpers/temporal';

/** The time-skipping server (the helper registers our search attributes: TeamId, SubscriptionId, EventType…). */
export const createWebhookEnv = createTimeSkippingEnv;

/** Webhook activities on a test database, with the test config (loopback receivers allowed). */
export function testActivities(db: Db, env: TestWorkflowEnvironment, extraEnv: Record<string, string> = {}) {
  const config = testConfig(extraEnv);
  const outbox = new OutboxStarter(db, async () => env.client, config.TEMPORAL_TASK_QUEUE);
  const deps = { db, config, outbox } as unknown as ActivityDeps; // mail and SMS are not used by webhooks
  return { outbox, activities: webhooksActivities(deps) };
}

export async function startWorker(
  env: TestWorkflowEnvironment,
  activities: object,
  options: Partial<WorkerOptions> = {},
): Promise<{ worker: Worker; done: Promise<void> }> {
  const worker = await createTestWorker(env, activities, options);
  const done = worker.run();
  return { worker, done };
}

export async function subscribe(db: Db, teamId: string, url: string, extra: Partial<CreateInput> = {}) {
  return createSubscription({ db, config: testConfig() }, { teamId, values: { url, events: ['submission.created'], ...extra } });
}

/** Record an event as the forms feature does, then run the outbox relay (deterministic start). */
export async function emit(
  db: Db,
  outbox: OutboxStarter,
  teamId: string,
  data: Record<string, unknown> = {},
  type: EventType = 'submission.created',
) {
  outbox.fastPath = false;
  const event = await transactionWithOutbox(db, outbox, (trx, enqueue) =>
    recordEvent(trx, enqueue, { teamId, type, formId: null, payload: { event: type, timestamp: new Date().toISOString(), data } }),
  );
  await outbox.relay(-60_000);
  return event;
}

export async function attemptsOf(db: Db, subscriptionId: string, eventId: string) {
  const d = await db('webhook_deliveries').where({ subscription_id: subscriptionId, event_id: eventId }).first();
  const attempts = await db('webhook_attempts').where({ delivery_id: d!.id }).orderBy('attempt_number');
  return { delivery: d, attempts };
}
