import type { Worker } from '@temporalio/worker';
import { Webhook } from 'standardwebhooks';
import { rotateSecret } from '../../services/webhooks/subscriptions';
import { RETRY_DELAYS_MS } from '../../domain/webhook-retry';
import { verifyBodySignature } from '../../domain/webhook-signature';
import type { OutboxStarter } from '../../temporal/outbox';
import { eventually } from '../helpers/smtp';
import { attemptsOf, createWebhookEnv, emit, startWorker, subscribe, testActivities } from './harness';
import { testConfig } from '../helpers/config';
import { deadUrl, startReceiver } from './receiver';
import { useApiWorld } from '../helpers/world';

let outbox: OutboxStarter;
let worker: { worker: Worker; done: Promise<void> };

const w = useApiWorld({ temporal: createWebhookEnv, app: false });
beforeAll(async () => {
  const t = testActivities(w.tdb.db, w.env, { WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: '3' });
  outbox = t.outbox;
  worker = await startWorker(w.env, t.activities);
  w.onTeardown(async () => {
    worker.worker.shutdown();
    await worker.done;
  });
});

const result = (subId: string, eventId: string) => w.env.client.workflow.getHandle(`webhook-${subId}-${eventId}`).result();

it('retries 500, 500, 500 at the scheduled delays, then succeeds: 4 attempts, 4 logged rows', async () => {
  const rx = await startReceiver((_r, i, res) => {
    res.statusCode = i < 3 ? 500 : 200;
    res.end(i < 3 ? `boom ${i}` : 'thanks');
  });
  const sub = await subscribe(w.tdb.db, w.team.teamId, rx.url);
  const event = await emit(w.tdb.db, outbox, w.team.teamId, { n: 1 });
  expect(await result(sub.id, event.id)).toBe('success');
  expect(rx.received).toHaveLength(4);
  const { delivery, attempts } = await attemptsOf(w.tdb.db, sub.id, event.id);
  expect(delivery).toMatchObject({ status: 'succeeded', attempt_count: 4 });
  expect(attempts.map((a) => [a.attempt_number, a.status_code, a.outcome])).toEqual([
    [1, 500, 'failure'],
    [2, 500, 'failure'],
    [3, 500, 'failure'],
    [4, 200, 'success'],
  ]);
  expect(attempts.map((a) => a.response_body)).toEqual(['boom 0', 'boom 1', 'boom 2', 'thanks']);
  expect(attempts.every((a) => a.duration_ms! >= 0 && a.finished_at)).toBe(true);
  // The gaps follow 5 s, 5 min, 30 min with ±10 % jitter (plus the real time an attempt takes).
  for (let i = 1; i < 4; i++) {
    const gap = attempts[i].attempted_at.getTime() - attempts[i - 1].attempted_at.getTime();
    expect(gap).toBeGreaterThanOrEqual(RETRY_DELAYS_MS[i - 1] * 0.9);
    expect(gap).toBeLessThanOrEqual(RETRY_DELAYS_MS[i - 1] * 1.1 + 3000);
  }
  // Every attempt carried the same webhook id and body.
  expect(new Set(rx.received.map((r) => r.headers['x-webhook-id'])).size).toBe(1);
  expect(rx.received[0].headers['x-webhook-id']).toBe(delivery!.id);
  expect(new Set(rx.received.map((r) => r.body)).size).toBe(1);
  const sRow = await w.tdb.db('webhook_subscriptions').where({ id: sub.id }).first();
  expect(sRow).toMatchObject({ status: 'active', failing_since: null });
  expect(sRow!.last_success_at).not.toBeNull();
  await rx.close();
});

it('signs with X-Webhook-Signature and Standard Webhooks headers; one changed byte fails both', async () => {
  const rx = await startReceiver();
  const sub = await subscribe(w.tdb.db, w.team.teamId, rx.url);
  const event = await emit(w.tdb.db, outbox, w.team.teamId, { answer: 'héllo' });
  expect(await result(sub.id, event.id)).toBe('success');
  const [r] = rx.received;
  expect(r.headers['content-type']).toBe('application/json');
  expect(r.headers['x-webhook-event']).toBe('submission.created');
  expect(r.headers['x-webhook-timestamp']).toBe(r.headers['webhook-timestamp']);
  expect(r.headers['x-webhook-id']).toBe(r.headers['webhook-id']);
  expect(r.headers['x-webhook-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
  expect(verifyBodySignature(sub.secret, r.body, r.headers['x-webhook-signature'] as string)).toBe(true);
  const wh = new Webhook(sub.secret);
  const headers = r.headers as Record<string, string>;
  expect(wh.verify(r.body, headers)).toMatchObject({ event: 'submission.created', data: { answer: 'héllo' } });
  const tampered = Buffer.from(r.body);
  tampered[tampered.length - 3] ^= 1;
  expect(verifyBodySignature(sub.secret, tampered, headers['x-webhook-signature'])).toBe(false);
  expect(() => wh.verify(tampered.toString('utf8'), headers)).toThrow();
  await rx.close();
});

it('after a rotation, signs with both secrets for the overlap', async () => {
  const rx = await startReceiver();
  const sub = await subscribe(w.tdb.db, w.team.teamId, rx.url);
  const rotated = await rotateSecret({ db: w.tdb.db, config: testConfig() }, { teamId: w.team.teamId, id: sub.id });
  const event = await emit(w.tdb.db, outbox, w.team.teamId);
  expect(await result(sub.id, event.id)).toBe('success');
  const headers = rx.received[0].headers as Record<string, string>;
  expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
  expect(new Webhook(rotated.secret).verify(rx.received[0].body, headers)).toBeTruthy();
  expect(new Webhook(sub.secret).verify(rx.received[0].body, headers)).toBeTruthy();
  expect(verifyBodySignature(rotated.secret, rx.received[0].body, headers['x-webhook-signature'])).toBe(true);
  expect(verifyBodySignature(sub.secret, rx.received[0].body, headers['x-webhook-signature-previous'])).toBe(true);
  await rx.close();
});

it('honours Retry-After', async () => {
  const rx = await startReceiver((_r, i, res) => {
    if (i === 0) {
      res.writeHead(429, { 'retry-after': '3600' });
      res.end('slow down');
    } else res.end('ok');
  });
  const sub = await subscribe(w.tdb.db, w.team.teamId, rx.url);
  const event = await emit(w.tdb.db, outbox, w.team.teamId);
  expect(await result(sub.id, event.id)).toBe('success');
  const { attempts } = await attemptsOf(w.tdb.db, sub.id, event.id);
  expect(attempts).toHaveLength(2);
  const gap = attempts[1].attempted_at.getTime() - attempts[0].attempted_at.getTime();
  expect(gap).toBeGreaterThanOrEqual(3600_000);
  expect(gap).toBeLessThan(3600_000 + 5000);
  await rx.close();
});

it('a 410 disables the subscription at once', async () => {
  const rx = await startReceiver((_r, _i, res) => {
    res.statusCode = 410;
    res.end('gone');
  });
  const sub = await subscribe(w.tdb.db, w.team.teamId, rx.url);
  const event = await emit(w.tdb.db, outbox, w.team.teamId);
  expect(await result(sub.id, event.id)).toBe('gone');
  expect(rx.received).toHaveLength(1);
  expect(await w.tdb.db('webhook_subscriptions').where({ id: sub.id }).first()).toMatchObject({
    status: 'disabled',
    disabled_reason: 'endpoint_gone',
  });
  expect((await attemptsOf(w.tdb.db, sub.id, event.id)).delivery!.status).toBe('failed');
  await rx.close();
});

it('a receiver down for 6 days disables the subscription, with its reason', async () => {
  const url = await deadUrl();
  const sub = await subscribe(w.tdb.db, w.team.teamId, url);
  const events: string[] = [];
  for (let day = 0; day < 6; day++) {
    events.push((await emit(w.tdb.db, outbox, w.team.teamId, { day })).id);
    await w.env.sleep('1 day');
  }
  const after = await emit(w.tdb.db, outbox, w.team.teamId, { day: 6 }); // not delivered any more
  await Promise.all(events.map((e) => result(sub.id, e)));
  const row = await w.tdb.db('webhook_subscriptions').where({ id: sub.id }).first();
  expect(row).toMatchObject({ status: 'disabled', disabled_reason: 'failing_5_days' });
  expect(row!.disabled_at!.getTime() - row!.failing_since!.getTime()).toBeGreaterThanOrEqual(5 * 24 * 3600_000);
  expect(await w.tdb.db('webhook_deliveries').where({ subscription_id: sub.id, event_id: after.id }).first()).toBeUndefined();
  const first = await attemptsOf(w.tdb.db, sub.id, events[0]);
  expect(first.delivery!.status).toBe('failed');
  expect(first.attempts).toHaveLength(RETRY_DELAYS_MS.length + 1);
  expect(first.attempts[0].error).toMatch(/ECONNREFUSED/);
  const statuses = (await w.tdb.db('webhook_deliveries').where({ subscription_id: sub.id })).map((d) => d.status);
  expect(statuses.every((s) => s === 'failed' || s === 'cancelled')).toBe(true);
});

it('caps the deliveries in flight to one endpoint', async () => {
  const rx = await startReceiver(async (_r, _i, res) => {
    await new Promise((r) => setTimeout(r, 150));
    res.end('ok');
  });
  const sub = await subscribe(w.tdb.db, w.team.teamId, rx.url);
  const events = [];
  for (let i = 0; i < 12; i++) events.push(await emit(w.tdb.db, outbox, w.team.teamId, { i }));
  // Poll the deliveries instead of awaiting workflow results: awaiting a result lets the test
  // server skip time, which can fire the attempts' 20 s timeouts while the receiver (real time)
  // is still answering, and a timed-out attempt is retried: a duplicate the cap test must not see.
  await eventually(async () => {
    const done = await w.tdb
      .db('webhook_deliveries')
      .where({ subscription_id: sub.id, status: 'succeeded' })
      .count<{ n: number }[]>({ n: '*' })
      .first();
    return Number(done?.n) === 12;
  }, 'all 12 deliveries to succeed');
  expect(rx.received).toHaveLength(12);
  expect(rx.maxInFlight).toBeLessThanOrEqual(3);
  expect(rx.maxInFlight).toBeGreaterThanOrEqual(2);
  expect(await w.tdb.db('webhook_inflight').where({ subscription_id: sub.id })).toHaveLength(0);
  await rx.close();
});
