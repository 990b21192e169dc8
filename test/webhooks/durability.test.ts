import type { ServerResponse } from 'node:http';
import type { OutboxStarter } from '../../temporal/outbox';
import { startTestApp, type TestApp } from '../helpers/app';
import { client } from '../helpers/http';
import { attemptsOf, createWebhookEnv, emit, startWorker, subscribe, testActivities } from './harness';
import { startReceiver } from './receiver';
import { useApiWorld } from '../helpers/world';

let outbox: OutboxStarter;
let activities: object;

// A fresh time-skipping server (and team) per test: a killed worker can leave the server's
// time-skipping lock unbalanced, which would stall the next test's skipped timers.
const world = useApiWorld({ temporal: createWebhookEnv, app: false, eachTest: true });
beforeEach(() => {
  ({ outbox, activities } = testActivities(world.tdb.db, world.env));
});

const handle = (subId: string, eventId: string, suffix = '') => world.env.client.workflow.getHandle(`webhook-${subId}-${eventId}${suffix}`);
/** The handle once its workflow exists (polled every 50 ms, up to 10 s). */
async function started(h: ReturnType<typeof handle>): Promise<ReturnType<typeof handle>> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      await h.describe();
      return h;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

it('a worker killed in the middle of a delivery: a new worker completes it, same X-Webhook-Id', async () => {
  let held: ServerResponse | undefined;
  const rx = await startReceiver((_r, i, res) => {
    if (i === 0)
      held = res; // hold the first request open: the worker dies while waiting
    else res.end('ok');
  });
  const sub = await subscribe(world.tdb.db, world.team.teamId, rx.url);
  // No sticky cache: the test server does not move a dead worker's sticky tasks back to the
  // shared queue (a real cluster does, after stickyQueueScheduleToStartTimeout).
  const first = await startWorker(world.env, activities, { maxCachedWorkflows: 0 });
  const event = await emit(world.tdb.db, outbox, world.team.teamId, { kill: true });
  await rx.waitFor(1);
  first.worker.shutdown();
  await first.done;
  held?.destroy();
  const { attempts: during } = await attemptsOf(world.tdb.db, sub.id, event.id);
  expect(during.length).toBe(1);

  const second = await startWorker(world.env, activities);
  try {
    expect(await handle(sub.id, event.id).result()).toBe('success');
  } finally {
    second.worker.shutdown();
    await second.done;
  }
  expect(rx.received).toHaveLength(2);
  expect(rx.received[1].headers['x-webhook-id']).toBe(rx.received[0].headers['x-webhook-id']);
  expect(rx.received[1].body).toBe(rx.received[0].body);
  const { delivery, attempts } = await attemptsOf(world.tdb.db, sub.id, event.id);
  expect(delivery!.status).toBe('succeeded');
  expect(attempts.map((a) => a.outcome)).toEqual(['failure', 'success']);
  expect(attempts[0].error).toMatch(/did not finish|cancel|TIMEOUT/i);
  expect(await world.tdb.db('webhook_inflight').where({ subscription_id: sub.id })).toHaveLength(0);
  await rx.close();
});

it('a crash between the commit and the workflow start loses nothing: the relay starts it', async () => {
  const rx = await startReceiver();
  const sub = await subscribe(world.tdb.db, world.team.teamId, rx.url);
  const w = await startWorker(world.env, activities);
  try {
    outbox.fastPath = false;
    const { transactionWithOutbox } = await import('../../temporal/outbox');
    const { recordEvent } = await import('../../services/events/record');
    const event = await transactionWithOutbox(world.tdb.db, outbox, (trx, enqueue) =>
      recordEvent(trx, enqueue, {
        teamId: world.team.teamId,
        type: 'submission.created',
        payload: { event: 'submission.created', timestamp: new Date().toISOString(), data: {} },
      }),
    );
    expect(
      await world.tdb
        .db('outbox')
        .where({ workflow_id: `webhook-${sub.id}-${event.id}` })
        .whereNull('started_at'),
    ).toHaveLength(1);
    expect(await outbox.relay(-60_000)).toBeGreaterThanOrEqual(1);
    expect(await handle(sub.id, event.id).result()).toBe('success');
    expect(rx.received).toHaveLength(1);
  } finally {
    w.worker.shutdown();
    await w.done;
  }
  await rx.close();
});

it('a receiver that answers too late gets the delivery again, with the same X-Webhook-Id', async () => {
  const rx = await startReceiver(async (_r, i, res) => {
    if (i === 0) await new Promise((r) => setTimeout(r, 6000)); // past the 5 s limit: processed, but a failure for us
    res.end('ok');
  });
  const sub = await subscribe(world.tdb.db, world.team.teamId, rx.url);
  const w = await startWorker(world.env, activities);
  try {
    const event = await emit(world.tdb.db, outbox, world.team.teamId, { slow: true });
    expect(await handle(sub.id, event.id).result()).toBe('success');
    expect(rx.received).toHaveLength(2);
    const ids = rx.received.map((r) => r.headers['x-webhook-id']);
    expect(ids[1]).toBe(ids[0]);
    const { attempts } = await attemptsOf(world.tdb.db, sub.id, event.id);
    expect(attempts[0]).toMatchObject({ outcome: 'failure', status_code: null });
    expect(attempts[0].error).toMatch(/TIMEOUT/);
    expect(attempts[1]).toMatchObject({ outcome: 'success', status_code: 200 });
  } finally {
    w.worker.shutdown();
    await w.done;
  }
  await rx.close();
});

describe('through the API', () => {
  let app: TestApp;
  beforeEach(async () => {
    app = await startTestApp(world.tdb.db, { temporal: world.env.client });
  });
  afterEach(async () => app.close());

  it('a manual retry delivers again under a new workflow id, with the same X-Webhook-Id; the log shows every attempt', async () => {
    let fail = true;
    const rx = await startReceiver((_r, _i, res) => {
      res.statusCode = fail ? 500 : 200;
      res.end(fail ? 'x'.repeat(5000) : 'ok');
    });
    const api = client(app.baseUrl, world.team.apiKey);
    const sub = (await api.post('/api/v1/webhooks', { url: rx.url, events: ['submission.created'] })).body.data;
    const w = await startWorker(world.env, activities);
    try {
      const event = await emit(world.tdb.db, outbox, world.team.teamId, { manual: true });
      expect(await handle(sub.id, event.id).result()).toBe('failed');
      fail = false;
      const list = await api.get(`/api/v1/webhooks/${sub.id}/deliveries`);
      const d = list.body.data[0];
      expect(d).toMatchObject({ status: 'failed', attempt_count: 8, event_id: event.id });
      expect(d.attempts).toHaveLength(8);
      expect(d.attempts[0].response_body).toHaveLength(2048);
      expect(d.attempts[0]).toMatchObject({ status_code: 500, outcome: 'failure', trigger: 'scheduled' });
      const retry = await api.post(`/api/v1/webhooks/${sub.id}/deliveries/${d.id}/retry`);
      expect(retry.status).toBe(202);
      // The fast path starts it right after the commit: wait until it exists, then for its result.
      expect(await (await started(handle(sub.id, event.id, '-retry-1'))).result()).toBe('success');
      const after = (await api.get(`/api/v1/webhooks/${sub.id}/deliveries`)).body.data[0];
      expect(after.status).toBe('succeeded');
      expect(after.attempts.map((a: { trigger: string }) => a.trigger).slice(-1)).toEqual(['manual']);
      expect(new Set(rx.received.map((r) => r.headers['x-webhook-id']))).toEqual(new Set([d.id]));
      // The test endpoint delivers a webhook.test event.
      const test = await api.post(`/api/v1/webhooks/${sub.id}/test`);
      expect(test.status).toBe(202);
      expect(await (await started(handle(sub.id, test.body.data.event_id))).result()).toBe('success');
      expect(rx.received.at(-1)!.headers['x-webhook-event']).toBe('webhook.test');
    } finally {
      w.worker.shutdown();
      await w.done;
    }
    await rx.close();
  });
});
