import fs from 'node:fs';
import os from 'node:os';
import { makeForm } from '../test/fixtures/forms';
import { startStallProxy } from '../test/helpers/stall-proxy';
import type { BenchEnv } from './harness';
import { benchProcessEnv, startProcess } from './processes';

/**
 * The API during a PostgreSQL stall (docs/operators.md "Failing fast"): public submissions at a
 * steady RATE a second, open loop (a slow answer does not slow the sender), for BEFORE seconds,
 * then STALL seconds with PostgreSQL behind a proxy that stops forwarding (as when frozen), then
 * AFTER seconds. Prints, per phase, the answers by status and their latency, and the API
 * process's peak memory. BENCH_STALL_S shortens or lengthens the stall (default 30).
 */
const RATE = 50;
const BEFORE_S = 5;
const STALL_S = Number(process.env.BENCH_STALL_S ?? 30);
const AFTER_S = 10;

type Phase = 'before' | 'stall' | 'after';
interface Answer {
  phase: Phase;
  status: number;
  ms: number;
}

export default async function stallBench(env: BenchEnv): Promise<void> {
  const direct = new URL(env.databaseUrl);
  const proxy = await startStallProxy({ host: direct.hostname, port: Number(direct.port) });
  const proxied = new URL(env.databaseUrl);
  proxied.host = proxy.address;
  const api = await startProcess('bin/api.ts', {
    ...benchProcessEnv({ ...env.deps.config, DATABASE_URL: proxied.toString() }),
    ...(env.temporal ? { TEMPORAL_ADDRESS: env.temporal.env.address } : {}),
  });
  const form = await makeForm(env.db, env.team.teamId);
  const answers: Answer[] = [];
  const pending: Array<Promise<void>> = [];
  let phase: Phase = 'before';
  let peakRss = 0;
  const rss = () => {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${api.pid}/status`, 'utf8'));
    peakRss = Math.max(peakRss, m ? Number(m[1]) / 1024 : 0);
  };
  const rssBy: Record<Phase, number> = { before: 0, stall: 0, after: 0 };
  let n = 0;
  const send = () => {
    const started = performance.now();
    const at = phase;
    const body = JSON.stringify({ fields: { email: `stall-${n++}@example.com` } });
    pending.push(
      fetch(`${api.url}/api/forms/${form.id}/submissions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        signal: AbortSignal.timeout(60_000),
      })
        .then(async (res) => {
          await res.arrayBuffer();
          answers.push({ phase: at, status: res.status, ms: performance.now() - started });
        })
        .catch(() => {
          answers.push({ phase: at, status: 0, ms: performance.now() - started });
        }),
    );
  };
  const load = os.loadavg()[0];
  const sender = setInterval(send, 1000 / RATE);
  const sampler = setInterval(() => {
    rss();
    rssBy[phase] = Math.max(rssBy[phase], peakRss);
  }, 250);
  try {
    await wait(BEFORE_S);
    phase = 'stall';
    proxy.stall();
    await wait(STALL_S);
    proxy.resume();
    phase = 'after';
    await wait(AFTER_S);
  } finally {
    clearInterval(sender);
    await Promise.all(pending);
    clearInterval(sampler);
    proxy.resume();
    await api.stop();
    await proxy.close();
  }
  const stored = Number((await env.db('submissions').where({ form_id: form.id }).count({ n: '*' }).first())?.n);
  process.stdout.write(
    `stall: ${RATE}/s open loop, ${BEFORE_S}s before, ${STALL_S}s PostgreSQL stall, ${AFTER_S}s after; DATABASE_BUDGET_MS ${env.deps.config.DATABASE_BUDGET_MS}\n`,
  );
  for (const p of ['before', 'stall', 'after'] as Phase[]) {
    const mine = answers.filter((a) => a.phase === p);
    const byStatus = Object.entries(
      mine.reduce<Record<string, number>>((acc, a) => ({ ...acc, [a.status || 'no answer']: (acc[a.status || 'no answer'] ?? 0) + 1 }), {}),
    )
      .map(([s, c]) => `${s}: ${c}`)
      .join(', ');
    const ms = mine.map((a) => a.ms).sort((a, b) => a - b);
    const q = (f: number) => (ms.length ? ms[Math.min(ms.length - 1, Math.floor(f * ms.length))].toFixed(0) : '-');
    process.stdout.write(
      `  ${p.padEnd(6)} sent ${mine.length}; ${byStatus}; latency p50 ${q(0.5)} ms, p99 ${q(0.99)} ms, max ${q(1)} ms; API RSS peak ${rssBy[p].toFixed(0)} MB\n`,
    );
  }
  const created = answers.filter((a) => a.status === 201).length;
  process.stdout.write(
    `  201s: ${created}, rows stored: ${stored} (rows beyond the 201s: statements the stall caught that completed after it)\n`,
  );
  process.stdout.write(`  load average (1 min) at the start: ${load.toFixed(2)} on ${os.cpus().length} CPUs, shared with other work\n`);
}

const wait = (s: number) => new Promise((resolve) => setTimeout(resolve, s * 1000));
