import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { NativeConnection, Worker } from '@temporalio/worker';
import { createActivities } from '../activities';
import { createMailer } from '../core/mailer';
import { createSmsSender } from '../core/sms';
import { baseline, printResult, type BenchEnv } from './harness';

const CONTACTS = Number(process.env.BENCH_SEQ_CONTACTS ?? 10_000);
const BATCH = Math.min(1_000, CONTACTS);
/** How long to wait for the last email after the last enroll request. */
const WAIT_S = Number(process.env.BENCH_SEQ_WAIT_S ?? 300);

/** Arrivals per 10 s window from t0, e.g. "0-10s 412, 10-20s 655". */
function timeline(arrivals: number[], t0: number): string {
  const buckets = new Map<number, number>();
  for (const a of arrivals) {
    const b = Math.floor((a - t0) / 10_000);
    buckets.set(b, (buckets.get(b) ?? 0) + 1);
  }
  return [...buckets.entries()]
    .sort((x, y) => x[0] - y[0])
    .map(([b, n]) => `${b * 10}-${b * 10 + 10}s ${n}`)
    .join(', ');
}

/** A local SMTP receiver that only counts messages (no parsing), stamping each arrival. */
async function smtpReceiver() {
  const arrivals: number[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    maxClients: 200,
    onData(stream, _s, cb) {
      stream.on('data', () => undefined);
      stream.on('end', () => {
        arrivals.push(Date.now());
        cb();
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { port: (server.server.address() as AddressInfo).port, arrivals, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/**
 * Enroll 10,000 contacts (10 bulk requests of 1,000) in a one-step email sequence on the dev
 * server, with a local SMTP receiver: the API time, and emails per second through the worker
 * until the last one arrives.
 */
export default async function run(env: BenchEnv): Promise<void> {
  if (!env.temporal) throw new Error('the sequences bench needs Temporal');
  const base = await baseline(env, 5);
  printResult('baseline (select 1)', base);

  const smtp = await smtpReceiver();
  // Swap the harness worker for one whose mailer talks SMTP (pooled connections) to the receiver.
  env.temporal.worker.shutdown();
  while (env.temporal.worker.getState() !== 'STOPPED') await new Promise((r) => setTimeout(r, 50));
  const config = { ...env.deps.config, SMTP_URL: `smtp://127.0.0.1:${smtp.port}/?pool=true&maxConnections=20&maxMessages=100000` };
  const worker = await Worker.create({
    connection: env.temporal.env.nativeConnection as NativeConnection,
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    workflowsPath: require.resolve('../workflows'),
    activities: createActivities({
      db: env.db,
      config,
      mailer: createMailer(config),
      sms: createSmsSender(config),
      outbox: env.deps.outbox,
    }),
    maxConcurrentActivityTaskExecutions: 200,
    maxConcurrentLocalActivityExecutions: 200,
    maxConcurrentWorkflowTaskExecutions: 200,
    maxCachedWorkflows: 12_000,
  });
  const running = worker.run();
  // The outbox relay loop runs in the harness, as bin/worker.ts runs it.
  try {
    const headers = { authorization: `Bearer ${env.team.session}`, 'content-type': 'application/json' };
    const seqRes = await fetch(`${env.baseUrl}/api/v1/sequences`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        name: 'Bench',
        status: 'active',
        steps: [
          {
            channel: 'email',
            delay: { value: 0, unit: 'minutes' },
            subject: 'Hi {{first_name}}',
            body: '<p>Hello {{first_name}}</p><a href="https://example.com">x</a>',
          },
        ],
      }),
    });
    const seq = (await seqRes.json()) as { data: { id: string } };
    const ids: string[] = [];
    for (let i = 0; i < CONTACTS; i += BATCH) {
      const rows = Array.from({ length: BATCH }, (_, j) => ({
        team_id: env.team.teamId,
        email: `bench-${i + j}@example.com`,
        first_name: `C${i + j}`,
      }));
      ids.push(...(await env.db('contacts').insert(rows).returning('id')).map((r: { id: string }) => r.id));
    }

    const t0 = Date.now();
    const perRequest: number[] = [];
    for (let i = 0; i < CONTACTS; i += BATCH) {
      const t = Date.now();
      const res = await fetch(`${env.baseUrl}/api/v1/sequences/${seq.data.id}/enrollments`, {
        method: 'POST',
        headers: { authorization: `Bearer ${env.team.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ contact_ids: ids.slice(i, i + BATCH) }),
      });
      if (res.status !== 201) throw new Error(`enroll answered ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
      perRequest.push(Date.now() - t);
    }
    const apiMs = Date.now() - t0;
    const deadline = Date.now() + WAIT_S * 1000; // report what arrived by then
    while (smtp.arrivals.length < CONTACTS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const last = smtp.arrivals[smtp.arrivals.length - 1] ?? Date.now();
    const seconds = (last - t0) / 1000;
    const rate = smtp.arrivals.length / seconds;
    perRequest.sort((a, b) => a - b);
    const started = await env.db('outbox').whereNotNull('started_at').count({ n: '*' });
    const sends = await env.db('sequence_sends').groupBy('status').select('status').count({ n: '*' });
    const timing = await env
      .db('sequence_sends')
      .first<{ claim_spread_s: string; send_ms: string; first_claim: string }>(
        env.db.raw('extract(epoch from max(claimed_at) - min(claimed_at)) AS claim_spread_s'),
        env.db.raw('avg(extract(epoch from delivered_at - claimed_at)) * 1000 AS send_ms'),
        env.db.raw('extract(epoch from min(claimed_at)) * 1000 AS first_claim'),
      );
    const startedAt = await env
      .db('outbox')
      .first<{ start_spread_s: string; retried: string }>(
        env.db.raw('extract(epoch from max(started_at) - min(created_at)) AS start_spread_s'),
        env.db.raw('count(*) FILTER (WHERE attempts > 0) AS retried'),
      );
    const spread = Number(startedAt.start_spread_s);
    process.stdout.write(
      `workflows started: ${started[0].n} in ${spread.toFixed(1)} s from the first outbox row (${(Number(started[0].n) / spread).toFixed(0)} starts/s, ` +
        `${startedAt.retried} rows needed the relay); sends by status: ${JSON.stringify(sends)}; ` +
        `first claim ${(Number(timing.first_claim) - t0).toFixed(0)} ms after the first request, claims spread over ${Number(timing.claim_spread_s).toFixed(1)} s, ` +
        `avg claim→SMTP accepted ${Number(timing.send_ms).toFixed(0)} ms\n`,
    );
    process.stdout.write(`emails per 10 s window from the first request: ${timeline(smtp.arrivals, t0)}\n`);
    process.stdout.write(
      `enroll API: ${CONTACTS} contacts in ${CONTACTS / BATCH} requests: ${apiMs} ms total, ` +
        `per request p50 ${perRequest[Math.floor(perRequest.length / 2)]} ms, max ${perRequest[perRequest.length - 1]} ms ` +
        `(${((CONTACTS / apiMs) * 1000).toFixed(0)} enrollments/s)\n`,
    );
    process.stdout.write(
      `emails: ${smtp.arrivals.length}/${CONTACTS} received by SMTP in ${seconds.toFixed(1)} s from the first request: ` +
        `${rate.toFixed(0)} emails/s (target 200/s); baseline ${base.rps.toFixed(0)} req/s\n`,
    );
  } finally {
    worker.shutdown();
    await running;
    await smtp.close();
  }
}
