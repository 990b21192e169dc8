import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { Client as PgClient } from 'pg';
import { Client } from '@temporalio/client';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { NativeConnection, Runtime, DefaultLogger, Worker } from '@temporalio/worker';
import { createActivities, type ActivityDeps } from '../activities';
import { buildWorkerDeps } from '../activities/deps';
import { webhookFirstAttempt } from '../activities/webhooks/first-attempt';
import { createApp } from '../api/app';
import { buildAppDeps } from '../api/build-deps';
import type { AppDeps } from '../api/deps';
import { createTeamWithOwner } from '../services/accounts/users';
import { createApiKey } from '../services/api-keys';
import { createSession } from '../services/sessions';
import { parseConfig } from '../core/config';
import { ALL_SCOPES } from '../core/scopes';
import { generateKey } from '../core/secret-box';
import { ensureEmbeddedPostgres } from '../db/embedded';
import { createDb, type Db } from '../db/knex';
import { migrateLatest } from '../db/migrate';
import { freePort } from '../core/ports';
import { findTemporalCli } from '../temporal/binaries';
import { DEV_SERVER_SQLITE_ARGS } from '../temporal/dev-server';
import { OutboxStarter } from '../temporal/outbox';
import { startRelayLoop } from '../temporal/relay-loop';
import { searchAttributeKeys } from '../temporal/search-attributes';
import { startSmtpSink, type SmtpSink } from './smtp-sink';
import { BENCH_SETTINGS, benchProcessEnv, startProcess, startWorkerProcess } from './processes';

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

const ROOT = path.resolve(__dirname, '..');

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

export interface BenchEnv {
  db: Db;
  databaseUrl: string;
  /** The API in its own process (bin/api.ts), as deployed: measure this one. */
  baseUrl: string;
  /** Every API process (BENCH_PROCESSES=n starts n; baseUrl is the first). */
  apiUrls: string[];
  /** Worker processes (bin/worker.ts) when BENCH_PROCESSES is set; else the worker runs in this process. */
  workerProcesses: number;
  /** The API process's pid (its peak RSS is read from /proc/<pid>/status). */
  apiPid: number;
  /** Every API and worker process, for CPU accounting (bench/cpu.ts). */
  pids: { api: number[]; workers: number[] };
  /** The same app inside the bench process, on the same database (for set-up calls). */
  inProcessUrl: string;
  deps: AppDeps;
  team: { teamId: string; userId: string; apiKey: string; session: string };
  /** `worker`: the in-process worker (absent with BENCH_PROCESSES, where worker processes do the work). */
  temporal?: { client: Client; env: TestWorkflowEnvironment; worker?: Worker };
  /** The SMTP server every process of this environment sends to (SMTP_URL). */
  smtp: SmtpSink;
  /** The in-process outbox relay (absent with BENCH_PROCESSES): pause it to measure the API path without workflow starts. */
  relay?: { pause(): Promise<void>; resume(): Promise<void> };
  close(): Promise<void>;
}

/**
 * BENCH_PROCESSES=n: n API processes and n worker processes (bin/worker.ts, each with its relay
 * loop) against the one Postgres and the one Temporal server, instead of one API process and the
 * worker inside the bench process.
 */
export const BENCH_PROCESSES = Number(process.env.BENCH_PROCESSES ?? 0);

/**
 * Which store the bench's Temporal dev server uses: `sqlite`, the file with the settings `npm run
 * dev` uses (the default: what users run), or `memory` (BENCH_TEMPORAL=memory).
 */
export const BENCH_TEMPORAL_STORE: 'sqlite' | 'memory' = process.env.BENCH_TEMPORAL === 'memory' ? 'memory' : 'sqlite';

/** A Temporal dev server (the real CLI) with our search attributes, on a fresh SQLite file or in memory. */
export async function startDevServer(store: 'sqlite' | 'memory'): Promise<TestWorkflowEnvironment> {
  let dir: string | undefined;
  if (store === 'sqlite') dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fss-bench-temporal-'));
  const env = await TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'existing-path', path: findTemporalCli() },
      searchAttributes: searchAttributeKeys(),
      ...(dir ? { dbFilename: path.join(dir, 'temporal.sqlite') } : {}),
      extraArgs: ['--log-level', 'error', ...(dir ? DEV_SERVER_SQLITE_ARGS : [])],
    },
  });
  const teardown = env.teardown.bind(env);
  env.teardown = async () => {
    await teardown();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  };
  return env;
}

/**
 * A fresh database on the embedded Postgres (or DATABASE_URL's server), the real API on a real
 * port, a team with an all-scopes key, and optionally a Temporal dev server with a real worker.
 */
export async function startBenchEnv(opts: BenchEnvOptions = {}): Promise<BenchEnv> {
  const stops: Array<() => Promise<unknown>> = [];
  try {
    return await buildBenchEnv(opts, stops);
  } catch (err) {
    // A step failed half-way: stop what was already started (a Temporal dev server, worker or API
    // processes, the database), so that a failed bench leaves nothing running behind it.
    await runStops(stops);
    throw err;
  }
}

type BenchEnvOptions = { temporal?: boolean; env?: Record<string, string>; activities?: (deps: ActivityDeps) => object };

async function runStops(stops: Array<() => Promise<unknown>>): Promise<void> {
  for (const stop of stops) await stop().catch((e) => process.stderr.write(`cleanup: ${e}\n`));
}

/** startBenchEnv's steps; each thing started puts its stop into `stops` (run first to last). */
async function buildBenchEnv(opts: BenchEnvOptions, stops: Array<() => Promise<unknown>>): Promise<BenchEnv> {
  let adminUrl: string;
  if (process.env.DATABASE_URL) adminUrl = withDatabase(process.env.DATABASE_URL, 'postgres');
  else {
    const pg = await ensureEmbeddedPostgres({ dataDir: path.join(ROOT, '.data'), name: 'bench' });
    stops.push(() => pg.stop());
    adminUrl = pg.adminUrl;
  }
  const name = `fss_bench_${Date.now().toString(36)}`;
  const admin = new PgClient({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const databaseUrl = withDatabase(adminUrl, name);
  await migrateLatest(databaseUrl);
  stops.unshift(async () => {
    const a = new PgClient({ connectionString: adminUrl });
    await a.connect();
    await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await a.end();
  });

  // Production processes refuse to start without SMTP_URL: they all send to this counting server.
  const smtp = await startSmtpSink();
  stops.push(() => smtp.close());

  const config = parseConfig({
    NODE_ENV: 'production',
    SMTP_URL: smtp.url,
    CALENDAR_CREDENTIALS_KEY: generateKey(),
    MAIL_SUPPRESSION_KEY: generateKey(),
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_MAX: '20',
    DATA_DIR: path.join(ROOT, '.data', 'bench-files'),
    LOG_LEVEL: 'silent',
    ...BENCH_SETTINGS,
    ...opts.env,
  });
  const db = createDb(databaseUrl, 20);
  stops.unshift(() => db.destroy());

  // The API processes' ports, chosen first: BASE_URL names the first, so what the worker hands out
  // (links, a calendar's push address) reaches it. The bench's own settings (a stand-in's URLs) go
  // to every process.
  const apiPorts: number[] = [];
  for (let i = 0; i < Math.max(1, BENCH_PROCESSES); i++) apiPorts.push(await freePort());
  const processEnv = { ...benchProcessEnv(config, `http://127.0.0.1:${apiPorts[0]}`), ...opts.env };

  let temporal: BenchEnv['temporal'];
  let relayControl: BenchEnv['relay'];
  const workerPids: number[] = [];
  if (opts.temporal) {
    Runtime.install({
      logger: new DefaultLogger('WARN'),
      telemetryOptions: { logging: { filter: { core: 'ERROR', other: 'ERROR' }, forward: {} } },
    });
    const env = await startDevServer(BENCH_TEMPORAL_STORE);
    stops.unshift(() => env.teardown());
    // As in bin/worker.ts: the worker's outbox client shares its connection (eager starts).
    const workerClient = new Client({ connection: env.nativeConnection as NativeConnection });
    const outbox = new OutboxStarter(db, async () => workerClient, config.TEMPORAL_TASK_QUEUE, config.TEMPORAL_MAX_CONCURRENT_STARTS, {
      eager: true,
      leaseMs: config.OUTBOX_LEASE_MS,
    });
    const activityDeps: ActivityDeps = buildWorkerDeps(config, db, outbox);
    // As bin/worker.ts: the relay makes a webhook's first attempt (BENCH_WEBHOOK_FIRST_ATTEMPT=workflow: the old path).
    if (process.env.BENCH_WEBHOOK_FIRST_ATTEMPT !== 'workflow')
      outbox.setDirect('webhookDeliveryWorkflow', webhookFirstAttempt(activityDeps));
    let worker: Worker | undefined;
    if (BENCH_PROCESSES > 0) {
      // The worker processes do the work (an in-process worker, never run, would keep the connection open).
      for (let i = 0; i < BENCH_PROCESSES; i++) {
        const w = await startWorkerProcess({ ...processEnv, TEMPORAL_ADDRESS: env.address });
        stops.unshift(() => w.stop());
        workerPids.push(w.pid);
      }
    } else {
      const inProcess = await Worker.create({
        connection: env.nativeConnection as NativeConnection,
        taskQueue: config.TEMPORAL_TASK_QUEUE,
        workflowsPath: require.resolve('../workflows'),
        activities: opts.activities ? opts.activities(activityDeps) : createActivities(activityDeps),
        maxConcurrentActivityTaskExecutions: 200,
        stickyQueueScheduleToStartTimeout: config.TEMPORAL_STICKY_TIMEOUT_S * 1000, // as bin/worker.ts
      });
      worker = inProcess;
      const running = inProcess.run();
      const relayOpts = { databaseUrl, minAgeMs: config.OUTBOX_STARTS_FROM === 'worker' ? 0 : 2000, idleMs: 1000 };
      let relay: { stop(): Promise<void> } | null = await startRelayLoop(outbox, relayOpts);
      relayControl = {
        async pause() {
          await relay?.stop();
          relay = null;
        },
        async resume() {
          relay ??= await startRelayLoop(outbox, relayOpts);
        },
      };
      stops.unshift(() => relayControl!.pause());
      stops.unshift(async () => {
        if (inProcess.getState() === 'RUNNING') inProcess.shutdown(); // a bench may have swapped it for its own
        await running;
      });
    }
    temporal = { client: env.client, env, worker };
  }

  const deps = buildAppDeps(
    config,
    {
      get: async () => (temporal ? temporal.client : Promise.reject(new Error('no Temporal in this bench'))),
      healthy: async () => !!temporal,
    },
    db,
  );
  const server = createApp(deps).listen(0, '127.0.0.1');
  await new Promise<void>((r) => server.once('listening', () => r()));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  deps.config.baseUrl = baseUrl;
  stops.unshift(() => deps.calendarWrites.close());
  stops.unshift(() => new Promise<void>((r) => server.close(() => r())));

  // The API under measurement runs as it is deployed: bin/api.ts in its own process (or several).
  const apiUrls: string[] = [];
  const apiPids: number[] = [];
  for (let i = 0; i < Math.max(1, BENCH_PROCESSES); i++) {
    const api = await startProcess(
      'bin/api.ts',
      { ...processEnv, ...(temporal ? { TEMPORAL_ADDRESS: temporal.env.address } : {}) },
      { port: apiPorts[i] },
    );
    stops.unshift(() => api.stop());
    apiUrls.push(api.url);
    apiPids.push(api.pid);
  }

  const team = await db.transaction(async (trx) => {
    const { teamId, user } = await createTeamWithOwner(trx, {
      teamName: 'Bench',
      plan: 'enterprise',
      email: `bench-${name}@example.com`,
      password: 'bench-password',
      passwordCost: config,
    });
    const { secret } = await createApiKey({ db: trx }, { teamId, scopes: [...ALL_SCOPES], createdBy: user.id });
    const { token } = await createSession(trx, { userId: user.id });
    return { teamId, userId: user.id, apiKey: secret, session: token };
  });

  return {
    db,
    databaseUrl,
    baseUrl: apiUrls[0],
    apiUrls,
    workerProcesses: temporal ? BENCH_PROCESSES : 0,
    apiPid: apiPids[0],
    pids: { api: apiPids, workers: workerPids },
    inProcessUrl: baseUrl,
    deps,
    team,
    temporal,
    smtp,
    relay: relayControl,
    async close() {
      await runStops(stops);
    },
  };
}

/** autocannon in a worker thread, so the load generator does not share the server's event loop. */
export async function load(opts: {
  url: string;
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  body?: string;
  connections?: number;
  duration?: number;
  requests?: autocannon.Request[];
}): Promise<LoadResult> {
  const r = await autocannon({
    url: opts.url,
    method: opts.method ?? 'GET',
    headers: opts.headers,
    body: opts.body,
    connections: opts.connections ?? 20,
    duration: opts.duration ?? 8,
    requests: opts.requests,
    workers: 1,
  } as autocannon.Options);
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx };
}

/**
 * The baseline every figure is compared with: a bare Koa handler doing one `select 1` on a pool
 * of the same size, in its own process like the API, measured in the same run.
 */
export async function baseline(
  env: BenchEnv,
  duration = 8,
  kind: 'select1' | 'user' | 'submission' = 'select1',
  opts: { env?: Record<string, string>; load?: Partial<Parameters<typeof load>[0]>; path?: string } = {},
): Promise<LoadResult> {
  const server = await startProcess('bench/baseline-server.ts', {
    ...benchProcessEnv(env.deps.config),
    BASELINE: kind,
    USER_ID: env.team.userId,
    TEAM_ID: env.team.teamId,
    ...opts.env,
  });
  try {
    return await load({ url: `${server.url}${opts.path ?? '/'}`, duration, ...opts.load });
  } finally {
    await server.stop();
  }
}

export function printResult(name: string, r: Pick<LoadResult, 'rps' | 'p50' | 'p99'> & Partial<LoadResult>, base?: { rps: number }): void {
  const ratio = base ? `  ratio to baseline ${(r.rps / base.rps).toFixed(2)}` : '';
  const bad = r.errors || r.non2xx ? `  errors ${r.errors ?? 0} non2xx ${r.non2xx ?? 0}` : '';
  process.stdout.write(`${name.padEnd(48)} ${r.rps.toFixed(0).padStart(7)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms${ratio}${bad}\n`);
}
