import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { freePort } from '../core/ports';
import { cpuSeconds } from './cpu';
import { baseline, load, printResult, type BenchEnv, type LoadResult } from './harness';
import { benchProcessEnv, startProcess, startWorkerProcess } from './processes';
import { createForm } from '../services/forms/forms';

/**
 * The production runtime against the development one, in the same run (issue 40): the compiled
 * JavaScript of `npm run build` (dist/) against the TypeScript sources through tsx.
 * - the worker's time from spawn to polling (its "worker running" line), with the prebuilt
 *   workflow bundle and with the workflows bundled at start;
 * - each process's resident memory once idle;
 * - GET /api/v1/me and public submissions in requests per second, the submissions also against
 *   their same-work baseline (bench/baseline-server.ts).
 * Every figure carries the 1-minute load average at its end: the machine may be shared.
 * RUNTIME_BENCH_SECONDS (default 5) is the length of each load.
 */
const ROOT = path.resolve(__dirname, '..');
const SECONDS = Number(process.env.RUNTIME_BENCH_SECONDS ?? 5);
const SETTLE_MS = 2000;

const loadavg = () =>
  `load ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A process's resident set in MiB (/proc/<pid>/status). */
function rssMiB(pid: number): number {
  const line = fs
    .readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? 0) / 1024;
}

/** The API process's CPU time per request (user + system) during `fn`: less sensitive to other work on the machine than requests/s. */
async function withCpu(pid: number, fn: () => Promise<LoadResult>): Promise<LoadResult & { cpuMs: number }> {
  const before = cpuSeconds({ api: () => [pid] }).api;
  const r = await fn();
  const after = cpuSeconds({ api: () => [pid] }).api;
  return { ...r, cpuMs: ((after - before) * 1000) / Math.max(1, r.rps * SECONDS) };
}

type Runtime = { name: string; compiled: boolean };
const RUNTIMES: Runtime[] = [
  { name: 'compiled', compiled: true },
  { name: 'tsx', compiled: false },
];

/** The inbound listener: resolves with its pid at its "inbound SMTP listening" line. */
async function startListener(env: Record<string, string>, compiled: boolean): Promise<{ pid: number; stop(): Promise<void> }> {
  const args = compiled ? ['dist/bin/inbound.js'] : ['--import', 'tsx', 'bin/inbound.ts'];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    readline.createInterface({ input: child.stdout }).on('line', (l) => l.includes('inbound SMTP listening') && resolve());
    child.once('exit', (code) => reject(new Error(`the listener exited during start-up (${code})`)));
  });
  return {
    pid: child.pid as number,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export default async function run(env: BenchEnv): Promise<void> {
  // Build first, so that the compiled figures are of the code in the tree, never of a stale dist/.
  const build = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build.js')], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (build.status !== 0 || !fs.existsSync(path.join(ROOT, 'dist', 'workflow-bundle.js'))) throw new Error('npm run build failed');
  const processEnv = { ...benchProcessEnv(env.deps.config), TEMPORAL_ADDRESS: env.temporal!.env.address };
  process.stdout.write(`Node ${process.version}, ${os.cpus().length} CPUs shared with other work; ${loadavg()} at the start\n`);

  // The worker: spawn → polling, on a task queue of its own (the bench's worker keeps 'fss').
  const workerCases = [
    { name: 'compiled, prebuilt bundle', compiled: true, bundle: undefined },
    { name: 'compiled, bundled at start', compiled: true, bundle: 'none' },
    { name: 'tsx, prebuilt bundle', compiled: false, bundle: path.join(ROOT, 'dist', 'workflow-bundle.js') },
    { name: 'tsx, bundled at start (npm run dev)', compiled: false, bundle: undefined },
  ];
  for (const c of workerCases) {
    const t0 = performance.now();
    const w = await startWorkerProcess(
      { ...processEnv, TEMPORAL_TASK_QUEUE: 'bench-runtime', ...(c.bundle ? { WORKFLOW_BUNDLE_PATH: c.bundle } : {}) },
      { compiled: c.compiled },
    );
    const ms = performance.now() - t0;
    await sleep(SETTLE_MS);
    process.stdout.write(
      `worker ${c.name.padEnd(38)} start to polling ${ms.toFixed(0).padStart(6)} ms  idle RSS ${rssMiB(w.pid).toFixed(0)} MiB  ${loadavg()}\n`,
    );
    await w.stop();
  }

  for (const r of RUNTIMES) {
    const l = await startListener(
      { ...processEnv, INBOUND_SMTP_HOST: '127.0.0.1', INBOUND_SMTP_PORT: String(await freePort()) },
      r.compiled,
    );
    await sleep(SETTLE_MS);
    process.stdout.write(`listener ${r.name.padEnd(36)} idle RSS ${rssMiB(l.pid).toFixed(0)} MiB  ${loadavg()}\n`);
    await l.stop();
  }

  const form = await createForm(
    { db: env.db },
    {
      teamId: env.team.teamId,
      values: {
        title: 'Runtime bench',
        status: 'published',
        fields: [
          { type: 'email', label: 'Email', name: 'email', required: true },
          { type: 'text', label: 'Name', name: 'name' },
        ],
      },
    },
  );
  const bodies = path.join(os.tmpdir(), `fss-runtime-bench-${process.pid}.js`);
  fs.writeFileSync(
    bodies,
    `let i = 0; const tag = Math.random().toString(36).slice(2);
module.exports = (req) => ({ ...req, body: JSON.stringify({ fields: { email: 'r' + tag + '-' + (++i) + '@bench.example', name: 'Bench ' + i }, status: 'completed' }) });\n`,
  );
  const submitLoad = {
    method: 'POST' as const,
    headers: { 'content-type': 'application/json', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) bench' },
    duration: SECONDS,
    connections: 32,
    requests: [{ method: 'POST', setupRequest: bodies } as never],
  };
  const query = '?utm_source=bench&tracking_id=t1';
  const sameWork = await baseline(env, SECONDS, 'submission', {
    env: { FORM_ID: form.id },
    path: `/submissions${query}`,
    load: submitLoad,
  });
  printResult('baseline: bare Koa, the same inserts', sameWork);
  process.stdout.write(`  ${loadavg()}\n`);

  for (const r of RUNTIMES) {
    const api = await startProcess('bin/api.ts', processEnv, { compiled: r.compiled });
    try {
      await sleep(SETTLE_MS);
      process.stdout.write(`api ${r.name.padEnd(41)} idle RSS ${rssMiB(api.pid).toFixed(0)} MiB  ${loadavg()}\n`);
      const me = () => load({ url: `${api.url}/api/v1/me`, headers: { authorization: `Bearer ${env.team.apiKey}` }, duration: SECONDS });
      await load({ url: `${api.url}/api/v1/me`, headers: { authorization: `Bearer ${env.team.apiKey}` }, duration: 1 }); // warm-up
      const m = await withCpu(api.pid, me);
      printResult(`  GET /api/v1/me (${r.name})`, m);
      process.stdout.write(`    API CPU ${m.cpuMs.toFixed(2)} ms a request  ${loadavg()}\n`);
      const submit = await withCpu(api.pid, () => load({ url: `${api.url}/api/forms/${form.slug}/submissions${query}`, ...submitLoad }));
      printResult(`  POST public submission (${r.name})`, submit, sameWork);
      process.stdout.write(
        `    ratio to the same-work baseline ${(submit.rps / sameWork.rps).toFixed(2)}, API CPU ${submit.cpuMs.toFixed(2)} ms a request  ${loadavg()}\n`,
      );
      if (submit.errors || submit.non2xx) throw new Error(`public submissions failed under load (${r.name})`);
    } finally {
      await api.stop();
    }
  }
  fs.rmSync(bodies, { force: true });
}
