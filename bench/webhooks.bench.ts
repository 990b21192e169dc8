import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createForm } from '../services/forms/forms';
import { createSubscription } from '../services/webhooks/subscriptions';
import { baseline, load, printResult, type BenchEnv } from './harness';
import { ceilings } from './temporal-ceiling';

/**
 * Webhooks: public submissions, each fanned out to 2 subscriptions to a local receiver (the
 * relay's first attempt from the outbox row; BENCH_WEBHOOK_FIRST_ATTEMPT=workflow measures the
 * earlier path, a delivery workflow each). Two runs:
 * - paced: PACED_PER_S submissions a second for PACED_S seconds, below the server's ceiling:
 *   the latency a receiver sees when the system keeps up;
 * - burst: 5,000 submissions as fast as 16 clients send them (the figure): deliveries/s,
 *   median and p99 from sending the submission to the receiver getting it.
 * Both check that every delivery arrived exactly once (by X-Webhook-Id); the bench fails if not.
 * Baselines measured in the same run: a bare Koa `select 1`, the rate at which this Temporal
 * server starts and completes empty workflows (the ceiling for one workflow per delivery, with the
 * in-memory server's beside it), and the receiver alone.
 */
const SUBMISSIONS = Number(process.env.WEBHOOKS_BENCH_SUBMISSIONS ?? 5000);
const CONCURRENCY = Number(process.env.WEBHOOKS_BENCH_CONCURRENCY ?? 16);
const PACED_PER_S = Number(process.env.WEBHOOKS_BENCH_PACED_PER_S ?? 10);
const PACED_S = Number(process.env.WEBHOOKS_BENCH_PACED_S ?? 20);
/** How long deliveries may take to arrive after the last submission before the run fails. */
const DEADLINE_MS = Number(process.env.WEBHOOKS_BENCH_DEADLINE_MS ?? 600_000);
/** The targets for the burst: deliveries/s (or the receiver's own ceiling), median and p99 latency. */
const TARGET_RPS = 300;
const TARGET_P50_MS = 2000;
const TARGET_P99_MS = 10_000;

const pct = (sorted: number[], p: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]);

/** The receiver: records when each delivery (by X-Webhook-Id) arrives, for which submission. */
async function startReceiver() {
  const arrivals = new Map<string, { at: number; submissionId: string }>();
  let duplicates = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const id = req.headers['x-webhook-id'];
      if (typeof id !== 'string') return res.end('ok'); // the receiver's own ceiling probe
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

/** How long the API took to answer each submission (by submission id). */
const answered = new Map<string, number>();

async function submit(env: BenchEnv, slug: string, i: number): Promise<{ id: string; at: number } | null> {
  const at = performance.now();
  const res = await fetch(`${env.apiUrls[i % env.apiUrls.length]}/api/forms/${slug}/submissions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ fields: { email: `w${i}@bench.example` } }),
  });
  const body = (await res.json()) as { data?: { id: string } };
  if (res.status === 201 && body.data) answered.set(body.data.id, performance.now() - at);
  return res.status === 201 && body.data ? { id: body.data.id, at } : null;
}

/** Wait for every delivery of these submissions, then report them. Throws if one is missing or doubled. */
async function report(
  env: BenchEnv,
  name: string,
  rx: Receiver,
  sentAt: Map<string, number>,
  t0: number,
  ceiling: { rps: number },
  target?: { rps: number },
): Promise<number> {
  const expected = sentAt.size * 2;
  const mine = () => [...rx.arrivals.values()].filter((a) => sentAt.has(a.submissionId));
  const deadline = performance.now() + DEADLINE_MS;
  while (mine().length < expected && performance.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  const got = mine();
  const latencies = got.map((a) => a.at - sentAt.get(a.submissionId)!).sort((a, b) => a - b);
  // The API's own answer time, to tell it apart from the delivery path.
  const api = [...sentAt.keys()].map((id) => answered.get(id) ?? 0).sort((a, b) => a - b);
  process.stdout.write(`  the API answered the submissions in p50 ${pct(api, 50)} ms, p99 ${pct(api, 99)} ms\n`);
  const lastAt = Math.max(...got.map((a) => a.at));
  const r = { rps: (got.length / (lastAt - t0)) * 1000, p50: pct(latencies, 50), p99: pct(latencies, 99) };
  printResult(`${name} (submission → receipt)`, r);
  process.stdout.write(
    `  delivered ${got.length}/${expected}, duplicates ${rx.duplicates()}; ${(r.rps / ceiling.rps).toFixed(2)} of the empty-workflow ceiling; ` +
      `median ${r.p50} ms (target < ${TARGET_P50_MS} ms ${r.p50 < TARGET_P50_MS ? 'met' : 'NOT met'}), ` +
      `p99 ${r.p99} ms (target < ${TARGET_P99_MS} ms ${r.p99 < TARGET_P99_MS ? 'met' : 'NOT met'})\n`,
  );
  if (target)
    process.stdout.write(
      `  ${r.rps.toFixed(0)} deliveries/s: target ≥ ${target.rps.toFixed(0)}/s ${r.rps >= target.rps ? 'met' : 'NOT met'} ` +
        `(${TARGET_RPS}/s, or the receiver's own ceiling if lower)\n`,
    );
  const wf = await env
    .db('outbox')
    .where({ workflow_type: 'webhookDeliveryWorkflow' })
    .whereNotNull('relayed_at')
    .count<{ n: number }[]>('* as n');
  const direct = await env
    .db('outbox')
    .where({ workflow_type: 'webhookDeliveryWorkflow' })
    .whereNull('relayed_at')
    .count<{ n: number }[]>('* as n');
  process.stdout.write(
    process.env.BENCH_WEBHOOK_FIRST_ATTEMPT === 'workflow'
      ? `  so far: ${Number(direct[0].n) + Number(wf[0].n)} deliveries, a workflow each (BENCH_WEBHOOK_FIRST_ATTEMPT=workflow)\n`
      : `  so far: ${direct[0].n} deliveries left to the relay's first attempt, ${wf[0].n} handed to a retry workflow\n`,
  );
  if (got.length < expected || rx.duplicates() > 0)
    throw new Error(`${name}: ${got.length} of ${expected} deliveries arrived, ${rx.duplicates()} duplicates`);
  return r.p50;
}

export default async function run(env: BenchEnv): Promise<void> {
  if (!env.temporal) throw new Error('the webhooks bench needs Temporal');
  process.stdout.write(
    env.workerProcesses > 0
      ? `processes: ${env.apiUrls.length} API (bin/api.ts), ${env.workerProcesses} workers (bin/worker.ts), one Postgres, one Temporal server\n`
      : `processes: 1 API (bin/api.ts); the worker and its relay in the bench process\n`,
  );
  const base = await baseline(env);
  printResult('baseline: bare Koa + select 1', base);
  const ceiling = await ceilings(env, Number(process.env.BENCH_CEILING_COUNT ?? 1000), 64);

  const rx = await startReceiver();
  try {
    // The receiver's own ceiling: 20 connections (2 endpoints × the per-endpoint cap of 10).
    const rxCeiling = await load({ url: `${rx.url}/a`, method: 'POST', body: '{}', connections: 20, duration: 4 });
    printResult('baseline: the receiver alone, 20 connections', rxCeiling);
    const form = await createForm(
      { db: env.db },
      {
        teamId: env.team.teamId,
        values: {
          title: 'Webhook bench form',
          status: 'published',
          fields: [{ type: 'email', label: 'Email', name: 'email', required: true }],
        },
      },
    );
    for (const path of ['/a', '/b'])
      await createSubscription(
        { db: env.db, config: { ...env.deps.config, ALLOW_LOOPBACK_WEBHOOK_URLS: true } },
        { teamId: env.team.teamId, values: { url: rx.url + path, events: ['submission.created'] } },
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
    await report(env, `paced ${PACED_PER_S} submissions/s`, rx, paced, p0, ceiling);

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
    await report(env, `burst of ${SUBMISSIONS}`, rx, burst, t0, ceiling, { rps: Math.min(TARGET_RPS, rxCeiling.rps) });
    if (failures > 0) throw new Error(`${failures} submissions failed`);
  } finally {
    await rx.close();
  }
}
