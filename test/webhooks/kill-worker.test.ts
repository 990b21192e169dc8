import type { ChildProcess } from 'node:child_process';
import { createForm } from '../../services/forms/forms';
import { http } from '../helpers/http';
import { subscribe } from './harness';
import { startReceiver } from './receiver';
import { spawnEntry } from '../helpers/entry-process';
import { useApiWorld } from '../helpers/world';

/**
 * A real worker process (bin/worker.ts) killed with SIGKILL in the middle of a burst, then a new
 * one: every delivery still arrives (DESIGN.md §2). Deliveries whose attempt was under way at the
 * kill may arrive twice, with the same X-Webhook-Id: receivers deduplicate on it. Runs on the real
 * Temporal dev server; the API is the real app in this process, in the default mode (it only
 * notifies; the worker's relay makes the first attempts).
 */
const SUBMISSIONS = 300;
const LEASE_MS = 25_000;

const workers: ChildProcess[] = [];

const world = useApiWorld({ temporal: 'local', env: { OUTBOX_STARTS_FROM: 'worker' } });
world.onTeardown(() => {
  for (const w of workers) if (w.exitCode === null && w.signalCode === null) w.kill('SIGKILL');
});

/** bin/worker.ts in its own process; resolves once it polls (its "worker running" log line). */
async function startWorkerProcess(): Promise<ChildProcess> {
  const { child, ready } = spawnEntry('bin/worker.ts', {
    readyLine: 'worker running',
    env: {
      DATABASE_URL: world.tdb.url,
      DATABASE_POOL_MAX: '10',
      TEMPORAL_ADDRESS: world.env.address,
      ALLOW_LOOPBACK_WEBHOOK_URLS: 'true',
      OUTBOX_LEASE_MS: String(LEASE_MS),
    },
  });
  workers.push(child);
  await ready;
  return child;
}

it('SIGKILL of the worker process mid-burst, then a new worker: every delivery arrives', async () => {
  const rx = await startReceiver(async (_r, _i, res) => {
    await new Promise((r) => setTimeout(r, 20)); // a receiver with some work per request: the burst takes a while
    res.end('ok');
  });
  const form = await createForm(
    { db: world.tdb.db },
    {
      teamId: world.team.teamId,
      values: {
        title: 'Kill bench',
        status: 'published',
        fields: [{ type: 'email', label: 'Email', name: 'email', required: true }],
      },
    },
  );
  const subs = [
    await subscribe(world.tdb.db, world.team.teamId, `${rx.url}/a`),
    await subscribe(world.tdb.db, world.team.teamId, `${rx.url}/b`),
  ];
  const first = await startWorkerProcess();

  let next = 0;
  const sent = Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < SUBMISSIONS) {
        const i = next++;
        const res = await http(world.app.baseUrl, 'post', `/api/forms/${form.slug}/submissions`, {
          body: { fields: { email: `k${i}@example.com` } },
        });
        expect(res.status).toBe(201);
      }
    }),
  );
  await rx.waitFor(100);
  first.kill('SIGKILL');
  await new Promise((r) => first.once('exit', r));
  const atKill = new Set(rx.received.map((r) => r.headers['x-webhook-id'])).size;
  await sent;
  const expected = (await world.tdb
    .db('webhook_deliveries')
    .whereIn(
      'subscription_id',
      subs.map((s) => s.id),
    )
    .pluck('id')) as string[];
  expect(expected).toHaveLength(SUBMISSIONS * 2);
  expect(atKill).toBeLessThan(expected.length); // the kill did land mid-burst

  const second = await startWorkerProcess();
  const distinct = () => new Set(rx.received.map((r) => String(r.headers['x-webhook-id'])));
  const pendingRows = async () =>
    (await world.tdb.db('webhook_deliveries').whereIn('id', expected).whereNot('status', 'succeeded').pluck('id')).length;
  // Stop the second worker only once every delivery has arrived and its row says so: the receiver
  // can see the last request a moment before the worker has written its outcome.
  const deadline = Date.now() + 120_000;
  while ((distinct().size < expected.length || (await pendingRows()) > 0) && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 250));
  second.kill('SIGTERM');
  await new Promise((r) => second.once('exit', r));

  expect([...distinct()].sort()).toEqual([...expected].sort());
  const statuses = await world.tdb.db('webhook_deliveries').whereIn('id', expected).groupBy('status').select('status').count('* as n');
  expect(statuses).toEqual([{ status: 'succeeded', n: expected.length }]);
  // Only attempts under way at the kill can repeat: at most the per-endpoint cap for each endpoint.
  const repeats = rx.received.length - expected.length;
  expect(repeats).toBeLessThanOrEqual(2 * 10);
  expect(await world.tdb.db('outbox').whereNull('started_at')).toHaveLength(0);
  process.stdout.write(`kill-worker: ${atKill} of ${expected.length} delivered at the kill, ${repeats} delivered twice (same id)\n`);
  await rx.close();
}, 300_000);
