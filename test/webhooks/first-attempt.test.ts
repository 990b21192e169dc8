import { webhookFirstAttempt } from '../../activities/webhooks/first-attempt';
import { testConfig } from '../helpers/config';
import type { OutboxStarter } from '../../temporal/outbox';
import { attemptsOf, createWebhookEnv, emit, startWorker, subscribe, testActivities } from './harness';
import { startReceiver } from './receiver';
import { useApiWorld } from '../helpers/world';

/**
 * The relay makes a webhook's first attempt itself, straight from the outbox row (DESIGN.md §2):
 * no workflow when it succeeds; the retry workflow, carrying the schedule on, when it fails; a
 * lost holder's lease is taken again and the attempt repeated with the same X-Webhook-Id.
 */
let outbox: OutboxStarter;
let activities: object;

const world = useApiWorld({ temporal: createWebhookEnv, app: false });
beforeEach(() => {
  ({ outbox, activities } = testActivities(world.tdb.db, world.env));
  const config = testConfig();
  // The activities' deps object is private to the harness: the handler gets its own queue here,
  // which changes nothing for these tests (the Postgres lease enforces the cap either way).
  outbox.setDirect('webhookDeliveryWorkflow', webhookFirstAttempt({ db: world.tdb.db, config }));
});

const workflowExists = async (id: string) =>
  world.env.client.workflow
    .getHandle(id)
    .describe()
    .then(
      () => true,
      () => false,
    );

it('a first attempt that succeeds is made by the relay: signed, logged, no workflow, the row done', async () => {
  const rx = await startReceiver();
  const sub = await subscribe(world.tdb.db, world.team.teamId, rx.url);
  const event = await emit(world.tdb.db, outbox, world.team.teamId, { direct: 1 });
  await outbox.drainDirect();
  expect(rx.received).toHaveLength(1);
  const { delivery, attempts } = await attemptsOf(world.tdb.db, sub.id, event.id);
  expect(rx.received[0].headers['x-webhook-id']).toBe(delivery!.id);
  expect(rx.received[0].headers['webhook-signature']).toMatch(/^v1,/);
  expect(delivery).toMatchObject({ status: 'succeeded', attempt_count: 1 });
  expect(attempts).toHaveLength(1);
  expect(attempts[0]).toMatchObject({ outcome: 'success', status_code: 200, trigger: 'scheduled', attempt_number: 1 });
  const workflowId = `webhook-${sub.id}-${event.id}`;
  const row = await world.tdb.db('outbox').where({ workflow_id: workflowId }).first();
  expect(row!.started_at).not.toBeNull();
  expect(row!.relayed_at).toBeNull();
  expect(await workflowExists(workflowId)).toBe(false);
  expect(await world.tdb.db('webhook_inflight').where({ subscription_id: sub.id })).toHaveLength(0);
  await world.tdb.db('webhook_subscriptions').where({ id: sub.id }).update({ status: 'disabled' });
  await rx.close();
});

it('a first attempt that fails starts the retry workflow, which carries the schedule on with the same X-Webhook-Id', async () => {
  const rx = await startReceiver((_r, i, res) => {
    res.statusCode = i === 0 ? 503 : 200;
    res.end(i === 0 ? 'busy' : 'ok');
  });
  const sub = await subscribe(world.tdb.db, world.team.teamId, rx.url);
  const w = await startWorker(world.env, activities);
  try {
    const event = await emit(world.tdb.db, outbox, world.team.teamId, { direct: 2 });
    await outbox.drainDirect();
    const workflowId = `webhook-${sub.id}-${event.id}`;
    const handle = world.env.client.workflow.getHandle(workflowId);
    const description = await handle.describe();
    // Operators find it by team, subscription and event type.
    expect(description.searchAttributes).toMatchObject({
      TeamId: [world.team.teamId],
      SubscriptionId: [sub.id],
      EventType: ['submission.created'],
    });
    const row = await world.tdb.db('outbox').where({ workflow_id: workflowId }).first();
    expect(row!.relayed_at).not.toBeNull();
    expect(row!.args[1]).toMatchObject({ retryIndex: 1, seq: 0 });
    expect(await handle.result()).toBe('success');
    expect(rx.received).toHaveLength(2);
    expect(rx.received[1].headers['x-webhook-id']).toBe(rx.received[0].headers['x-webhook-id']);
    const { delivery, attempts } = await attemptsOf(world.tdb.db, sub.id, event.id);
    expect(delivery).toMatchObject({ status: 'succeeded', attempt_count: 2 });
    expect(attempts.map((a) => [a.attempt_number, a.outcome, a.status_code])).toEqual([
      [1, 'failure', 503],
      [2, 'success', 200],
    ]);
    // The retry came after the schedule's first wait (5 s ± 10 %), on the workflow's clock.
    expect(attempts[1].attempted_at.getTime() - attempts[0].attempted_at.getTime()).toBeGreaterThanOrEqual(4400);
  } finally {
    w.worker.shutdown();
    await w.done;
  }
  await world.tdb.db('webhook_subscriptions').where({ id: sub.id }).update({ status: 'disabled' });
  await rx.close();
});

it('a 410 on the first attempt disables the subscription; the workflow records the end for operators', async () => {
  const rx = await startReceiver((_r, _i, res) => {
    res.statusCode = 410;
    res.end('gone');
  });
  const sub = await subscribe(world.tdb.db, world.team.teamId, rx.url);
  const w = await startWorker(world.env, activities);
  try {
    const event = await emit(world.tdb.db, outbox, world.team.teamId, { direct: 3 });
    await outbox.drainDirect();
    expect(await world.env.client.workflow.getHandle(`webhook-${sub.id}-${event.id}`).result()).toBe('gone');
    expect(rx.received).toHaveLength(1);
    expect((await world.tdb.db('webhook_subscriptions').where({ id: sub.id }).first())!.disabled_reason).toBe('endpoint_gone');
  } finally {
    w.worker.shutdown();
    await w.done;
  }
  await rx.close();
});

it('a holder lost mid-attempt: its lease expires, the attempt is made again with the same id, the lost one logged', async () => {
  const rx = await startReceiver();
  const sub = await subscribe(world.tdb.db, world.team.teamId, rx.url);
  outbox.fastPath = false;
  // What a worker killed mid-attempt leaves: the row leased once (lease now over), an attempt row
  // without an outcome, and its endpoint slot.
  const { transactionWithOutbox } = await import('../../temporal/outbox');
  const { recordEvent } = await import('../../services/events/record');
  const event = await transactionWithOutbox(world.tdb.db, outbox, (trx, enqueue) =>
    recordEvent(trx, enqueue, {
      teamId: world.team.teamId,
      type: 'submission.created',
      formId: null,
      payload: { event: 'submission.created', timestamp: new Date().toISOString(), data: { direct: 4 } },
    }),
  );
  const workflowId = `webhook-${sub.id}-${event.id}`;
  const d = await world.tdb.db('webhook_deliveries').where({ subscription_id: sub.id, event_id: event.id }).first();
  await world.tdb
    .db('outbox')
    .where({ workflow_id: workflowId })
    .update({ leases: 1, lease_until: new Date(Date.now() - 1000) });
  await world.tdb.db.raw(
    `with d as (update webhook_deliveries set attempt_count = 1 where id = ? returning id)
     insert into webhook_attempts (team_id, delivery_id, attempt_number, attempt_key, trigger, attempted_at) select ?, id, 1, ?, 'scheduled', now() from d`,
    [d!.id, world.team.teamId, `${workflowId}:relay-1`],
  );
  await world.tdb
    .db('webhook_inflight')
    .insert({ subscription_id: sub.id, holder: `${workflowId}:relay-1`, lease_expires_at: new Date(Date.now() + 60_000) });

  expect(await outbox.relay(0)).toBe(1);
  await outbox.drainDirect();
  expect(rx.received).toHaveLength(1);
  expect(rx.received[0].headers['x-webhook-id']).toBe(d!.id);
  const { delivery, attempts } = await attemptsOf(world.tdb.db, sub.id, event.id);
  expect(delivery!.status).toBe('succeeded');
  expect(attempts.map((a) => [a.attempt_key, a.outcome])).toEqual([
    [`${workflowId}:relay-1`, 'failure'],
    [`${workflowId}:relay-2`, 'success'],
  ]);
  expect(attempts[0].error).toMatch(/worker was lost/);
  expect(await world.tdb.db('webhook_inflight').where({ subscription_id: sub.id })).toHaveLength(0);
  expect(await workflowExists(workflowId)).toBe(false);
  // A live lease is left alone by every other relay.
  expect(await outbox.relay(0)).toBe(0);
  await rx.close();
});
