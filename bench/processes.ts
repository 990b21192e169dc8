import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { freePort, portAccepts } from '../core/ports';

/** The bench's own processes: the API, the worker and the baseline server, each a real Node process. */

const ROOT = path.resolve(__dirname, '..');

/** SIGTERM a child process and wait until it has exited. */
function stopChild(child: ChildProcess): Promise<void> {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/**
 * Settings every process of a bench shares, the in-process API and worker included: no rate limit
 * gets in the load generator's way, webhooks may call the local receiver, and the Temporal and
 * outbox knobs a run sets in its environment are passed on.
 */
export const BENCH_SETTINGS: Record<string, string> = {
  RATE_LIMIT_API_KEY_PER_MINUTE: '100000000',
  RATE_LIMIT_PUBLIC_PER_MINUTE: '100000000',
  RATE_LIMIT_PAGES_PER_MINUTE: '100000000',
  RATE_LIMIT_AVAILABILITY_PER_MINUTE: '100000000',
  RATE_LIMIT_SUBMIT_PER_MINUTE: '100000000',
  RATE_LIMIT_SUBMIT_PER_TARGET_PER_MINUTE: '100000000',
  ALLOW_LOOPBACK_WEBHOOK_URLS: 'true',
  ...(process.env.TEMPORAL_MAX_CONCURRENT_STARTS ? { TEMPORAL_MAX_CONCURRENT_STARTS: process.env.TEMPORAL_MAX_CONCURRENT_STARTS } : {}),
  ...(process.env.TEMPORAL_STICKY_TIMEOUT_S ? { TEMPORAL_STICKY_TIMEOUT_S: process.env.TEMPORAL_STICKY_TIMEOUT_S } : {}),
  ...(process.env.OUTBOX_STARTS_FROM ? { OUTBOX_STARTS_FROM: process.env.OUTBOX_STARTS_FROM } : {}),
};

/**
 * Node's arguments for an entry point: the TypeScript source through tsx, or (`compiled`) its
 * JavaScript from `npm run build` (dist/bin/api.js…). BENCH_NODE_ARGS, e.g. "--cpu-prof
 * --cpu-prof-dir=/tmp/prof", profiles the processes under measurement.
 */
function nodeArgs(entry: string, compiled = false): string[] {
  const extra = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  return compiled ? [...extra, path.join('dist', entry.replace(/\.ts$/, '.js'))] : [...extra, '--import', 'tsx', entry];
}

/** Run an entry point in its own Node process and wait until it accepts connections. */
export async function startProcess(
  entry: string,
  env: Record<string, string>,
  opts: { compiled?: boolean; port?: number } = {},
): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const port = opts.port ?? (await freePort());
  const child: ChildProcess = spawn(process.execPath, nodeArgs(entry, opts.compiled), {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let spawnError: Error | null = null;
  child.once('error', (e) => (spawnError = e));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (await portAccepts(port)) break;
    if (spawnError || child.exitCode !== null || Date.now() > deadline)
      throw new Error(`${entry} did not start${spawnError ? `: ${(spawnError as Error).message}` : ''}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid as number,
    stop: () => stopChild(child),
  };
}

/** bin/worker.ts (or its compiled dist/bin/worker.js) in its own process; resolves once it polls (its "worker running" log line). */
export async function startWorkerProcess(
  env: Record<string, string>,
  opts: { compiled?: boolean } = {},
): Promise<{ pid: number; stop(): Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, nodeArgs('bin/worker.ts', opts.compiled), {
    cwd: ROOT,
    env: { ...process.env, ...env, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    const rl = readline.createInterface({ input: child.stdout! });
    rl.on('line', (line) => {
      if (line.includes('worker running')) resolve();
      else if (/"level":(40|50|60)/.test(line)) process.stderr.write(`[worker ${child.pid}] ${line.slice(0, 400)}\n`);
    });
    child.once('exit', (code) => reject(new Error(`bin/worker.ts exited during start-up (${code})`)));
  });
  return {
    pid: child.pid as number,
    stop: () => stopChild(child),
  };
}

export function benchProcessEnv(
  config: {
    DATABASE_URL?: string;
    DATABASE_POOL_MAX: number;
    DATA_DIR?: string;
    SMTP_URL?: string;
    CALENDAR_CREDENTIALS_KEY?: string;
    MAIL_SUPPRESSION_KEY?: string;
  },
  baseUrl = 'http://127.0.0.1',
): Record<string, string> {
  return {
    NODE_ENV: 'production',
    ...(config.SMTP_URL ? { SMTP_URL: config.SMTP_URL } : {}),
    ...(config.CALENDAR_CREDENTIALS_KEY ? { CALENDAR_CREDENTIALS_KEY: config.CALENDAR_CREDENTIALS_KEY } : {}),
    ...(config.MAIL_SUPPRESSION_KEY ? { MAIL_SUPPRESSION_KEY: config.MAIL_SUPPRESSION_KEY } : {}),
    // production refuses to start without a public address; loopback http is the one it accepts
    BASE_URL: baseUrl,
    DATABASE_URL: config.DATABASE_URL as string,
    DATABASE_POOL_MAX: String(config.DATABASE_POOL_MAX),
    DATA_DIR: config.DATA_DIR ?? path.join(ROOT, '.data', 'bench-files'),
    ...BENCH_SETTINGS,
  };
}
