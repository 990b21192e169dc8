import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createForm } from '../api/services/forms/forms';
import { createSubscription } from '../api/services/webhooks/subscriptions';
import { baseline, printResult, type BenchEnv } from './harness';

/**
 * Webhooks: 5,000 public submissions, each fanned out to 2 subscriptions (10,000 delivery
 * workflows on the dev server, through the outbox), to a local receiver. Reports deliveries/s and
 * the latency from sending the submission to the receiver getting it (median, p99), and checks
 * that every delivery arrived exactly once (by X-Webhook-Id).
 */
const SUBMISSIONS = Number(process.env.WEBHOOKS_BENCH_SUBMISSIONS ?? 5000);
const CONCURRENCY = Number(process.env.WEBHOOKS_BENCH_CONCURRENCY ?? 16);
const DEADLINE_MS = Number(process.env.WEBHOOKS_BENCH_DEADLINE_MS ?? 50_000);

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];

export default async function run(env: BenchEnv): Promise<void> {
  if (!env.temporal) throw new Error('the webhooks bench needs Temporal');
  const base = await baseline(env);
  printResult('baseline: bare Koa + select 1', base);

  // The receiver: records when each delivery (by X-Webhook-Id) arrives, for which submission.
  const arrivals = new Map<string, { at: number; submissionId: string }>();
  let duplicates = 0;
  const receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const id = String(req.headers['x-webhook-id']);
      if (arrivals.has(id)) duplicates++;
      else arrivals.set(id, { at: performance.now(), submissionId: JSON.parse(Buffer.concat(chunks).toString()).data.submission_id });
      res.end('ok');
    });
  });
  receiver.listen(0, '127.0.0.1');
  await new Promise<void>((r) => receiver.once('listening', () => r()));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

  try {
    const form = await createForm(env.db, env.team.teamId, {
      title: 'Webhook bench form',
      status: 'published',
      fields: [{ type: 'email', label: 'Email', name: 'email', required: true }],
    });
    for (const path of ['/a', '/b']) await createSubscription(env.db, env.team.teamId, { url: url + path, events: ['submission.created'] }, true);

    // Submissions from CONCURRENCY clients; the send time of each submission id is kept.
    const sentAt = new Map<string, number>();
    let next = 0;
    let failures = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < SUBMISSIONS) {
          const i = next++;
          const start = performance.now();
          const res = await fetch(`${env.baseUrl}/api/forms/${form.slug}/submissions`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ fields: { email: `w${i}@bench.example` } }),
          });
          const body = (await res.json()) as { data?: { id: string } };
          if (res.status !== 201 || !body.data) failures++;
          else sentAt.set(body.data.id, start);
        }
      }),
    );
    const submitMs = performance.now() - t0;
    process.stdout.write(`${SUBMISSIONS} submissions in ${(submitMs / 1000).toFixed(1)} s (${((SUBMISSIONS / submitMs) * 1000).toFixed(0)}/s, ${CONCURRENCY} clients), failures ${failures}\n`);

    const expected = sentAt.size * 2;
    const deadline = performance.now() + DEADLINE_MS;
    while (arrivals.size < expected && performance.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const lastAt = Math.max(...[...arrivals.values()].map((a) => a.at));
    const latencies = [...arrivals.values()].map((a) => a.at - (sentAt.get(a.submissionId) ?? NaN)).filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
    const rate = (arrivals.size / (lastAt - t0)) * 1000;
    printResult('webhook deliveries (submission → receipt)', { rps: rate, p50: Math.round(pct(latencies, 50)), p99: Math.round(pct(latencies, 99)) }, base);
    process.stdout.write(`delivered ${arrivals.size}/${expected}, duplicates ${duplicates}, max ${Math.round(latencies.at(-1) ?? 0)} ms\n`);
    const pending = await env.db('webhook_deliveries').whereNot({ status: 'succeeded' }).count<{ n: number }[]>({ n: '*' }).first();
    process.stdout.write(`deliveries not yet marked succeeded in Postgres: ${pending?.n ?? 0}\n`);
    if (arrivals.size < expected || failures > 0) throw new Error(`only ${arrivals.size} of ${expected} deliveries arrived (${failures} failed submissions)`);
  } finally {
    receiver.closeAllConnections();
    await new Promise<void>((r) => receiver.close(() => r()));
  }
}
