import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createForm } from '../services/forms/forms';
import { createSubscription } from '../services/webhooks/subscriptions';
import { baseline, printResult, type BenchEnv } from './harness';
import { emptyWorkflowRate } from './temporal-ceiling';

/**
 * Webhooks: public submissions, each fanned out to 2 subscriptions (a delivery workflow each, on
 * the dev server, through the outbox) to a local receiver. Two runs:
 * - paced: PACED_PER_S submissions a second for PACED_S seconds, below the server's ceiling:
 *   the latency a receiver sees when the system keeps up;
 * - burst: 5,000 submissions as fast as 16 clients send them (the figure): deliveries/s,
 *   median and p99 from sending the submission to the receiver getting it.
 * Both check that every delivery arrived exactly once (by X-Webhook-Id); the bench fails if not.
 * Baselines measured in the same run: a bare Koa `select 1`, and the rate at which this Temporal
 * server starts and completes empty workflows (the ceiling for one workflow per delivery).
 */
const SUBMISSIONS = Number(process.env.WEBHOOKS_BENCH_SUBMISSIONS ?? 5000);
const CONCURRENCY = Number(process.env.WEBHOOKS_BENCH_CONCURRENCY ?? 16);
const PACED_PER_S = Number(process.env.WEBHOOKS_BENCH_PACED_PER_S ?? 10);
const PACED_S = Number(process.env.WEBHOOKS_BENCH_PACED_S ?? 20);
/** How long deliveries may take to arrive after the last submission before the run fails. */
const DEADLINE_MS = Number(process.env.WEBHOOKS_BENCH_DEADLINE_MS ?? 600_000);
const TARGET_P50_MS = 500;

const pct = (sorted: number[], p: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]);

/** The receiver: records when each delivery (by X-Webhook-Id) arrives, for which submission. */
async function startReceiver() {
  const arrivals = new Map<string, { at: number; submissionId: string }>();
  let duplicates = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const id = String(req.headers['x-webhook-id']);
      if (arrivals.has(id)) duplicates++;
      else arrivals.set(id, { at: performance.now(), submissionId: JSON.parse(Buffer.concat(chunks).toString()).data.submission_id });
      res.end('ok');
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((r) => server.once('listening', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    arrivals,
    duplicates: () => duplicates,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

async function submit(env: BenchEnv, slug: string, i: number): Promise<{ id: string; at: number } | null> {
  const at = performance.now();
  const res = await fetch(`${env.baseUrl}/api/forms/${slug}/submissions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ fields: { email: `w${i}@bench.example` } }),
  });
  const body = (await res.json()) as { data?: { id: string } };
  return res.status === 201 && body.data ? { id: body.data.id, at } : null;
}

/** Wait for every delivery of these submissions, then report them. Throws if one is missing or doubled. */
async function report(name: string, rx: Receiver, sentAt: Map<string, number>, t0: number, ceiling: { rps: number }): Promise<number> {
  const expected = sentAt.size * 2;
  const mine = () => [...rx.arrivals.values()].filter((a) => sentAt.has(a.submissionId));
  const deadline = performance.now() + DEADLINE_MS;
  while (mine().length < expected && performance.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  const got = mine();
  const latencies = got.map((a) => a.at - sentAt.get(a.submissionId)!).sort((a, b) => a - b);
  const lastAt = Math.max(...got.map((a) => a.at));
  const r = { rps: (got.length / (lastAt - t0)) * 1000, p50: pct(latencies, 50), p99: pct(latencies, 99) };
  printResult(`${name} (submission → receipt)`, r);
  process.stdout.write(
    `  delivered ${got.length}/${expected}, duplicates ${rx.duplicates()}; ${(r.rps / ceiling.rps).toFixed(2)} of the empty-workflow ceiling; ` +
      `median ${r.p50} ms: target < ${TARGET_P50_MS} ms ${r.p50 < TARGET_P50_MS ? 'met' : 'NOT met'}\n`,
  );
  if (got.length < expected || rx.duplicates() > 0)
    throw new Error(`${name}: ${got.length} of ${expected} deliveries arrived, ${rx.duplicates()} duplicates`);
  return r.p50;
}

export default async function run(env: BenchEnv): Promise<void> {
  if (!env.temporal) throw new Error('the webhooks bench needs Temporal');
  const base = await baseline(env);
  printResult('baseline: bare Koa + select 1', base);
  const ceiling = await emptyWorkflowRate(env, 1000, 64);
  printResult('baseline: empty workflows, start → result', ceiling);

  const rx = await startReceiver();
  try {
    const form = await createForm(env.db, env.team.teamId, {
      title: 'Webhook bench form',
      status: 'published',
      fields: [{ type: 'email', label: 'Email', name: 'email', required: true }],
    });
    for (const path of ['/a', '/b'])
      await createSubscription(
        env.db,
        env.team.teamId,
        { url: rx.url + path, events: ['submission.created'] },
        { loopback: true, private: false },
      );

    // Paced: one submission every 1000/PACED_PER_S ms.
    const paced = new Map<string, number>();
    const p0 = performance.now();
    const sends: Array<Promise<void>> = [];
    for (let i = 0; i < PACED_PER_S * PACED_S; i++) {
      const due = p0 + (i * 1000) / PACED_PER_S;
      await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
      sends.push(submit(env, form.slug, i).then((s) => void (s && paced.set(s.id, s.at))));
    }
    await Promise.all(sends);
    process.stdout.write(`paced: ${paced.size} submissions at ${PACED_PER_S}/s\n`);
    await report(`paced ${PACED_PER_S} submissions/s`, rx, paced, p0, ceiling);

    // Burst: SUBMISSIONS from CONCURRENCY clients.
    const burst = new Map<string, number>();
    let next = 0;
    let failures = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < SUBMISSIONS) {
          const s = await submit(env, form.slug, 100_000 + next++);
          if (s) burst.set(s.id, s.at);
          else failures++;
        }
      }),
    );
    const submitMs = performance.now() - t0;
    process.stdout.write(
      `burst: ${SUBMISSIONS} submissions in ${(submitMs / 1000).toFixed(1)} s (${((SUBMISSIONS / submitMs) * 1000).toFixed(0)}/s, ${CONCURRENCY} clients), failures ${failures}\n`,
    );
    await report(`burst of ${SUBMISSIONS}`, rx, burst, t0, ceiling);
    if (failures > 0) throw new Error(`${failures} submissions failed`);
  } finally {
    await rx.close();
  }
}
