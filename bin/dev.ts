/**
 * `npm run dev`: the whole product on one machine with no set-up.
 *
 *   1. Postgres: DATABASE_URL, else an embedded server under <DATA_DIR>/pg-dev.
 *   2. Migrations.
 *   3. Temporal: TEMPORAL_ADDRESS, else `temporal server start-dev` (SQLite file
 *      <DATA_DIR>/temporal.sqlite, Web UI), search attributes registered.
 *   4. The demo team, owner and API key (created once).
 *   5. The API (bin/api.ts) and the worker (bin/worker.ts) as child processes,
 *      their output prefixed with [api] / [worker].
 *
 * Ctrl-C / SIGTERM stops, in order: API and worker (SIGTERM, SIGKILL after 10 s),
 * the Temporal dev server, the embedded Postgres; then exits 0. An app child (API, worker,
 * inbound) that dies on its own is restarted with backoff (bin/dev/supervise.ts); one that keeps
 * failing, or the Temporal dev server dying, stops everything and the exit code is 1.
 *
 * Children run in their own process groups so that a Ctrl-C in the terminal
 * reaches only this launcher, which then stops them in the right order. Their
 * pids and the API URL are kept in <DATA_DIR>/dev.json. If the launcher itself
 * is killed outright (SIGKILL, out of memory), its watchdog (dev/watchdog.ts)
 * stops them within a few seconds; and the next run stops any leftover named in
 * dev.json (the inbound listener too) before starting. A port held by another
 * program is named: the API's stops the start, the inbound listener moves to a
 * free port, printed.
 *
 * Reads process.env only (no .env file). Environment:
 *   DATA_DIR (default <repo>/.data), DATABASE_URL, TEMPORAL_ADDRESS,
 *   TEMPORAL_NAMESPACE, PORT (3000), HOST, BASE_URL,
 *   ALLOW_LOOPBACK_WEBHOOK_URLS (default true here: http://127.0.0.1 receivers work).
 *
 * Parts: dev/managed.ts (child processes), dev/state.ts (dev.json),
 * dev/watchdog.ts, dev/port-holder.ts, dev/temporal.ts (the Temporal dev server), dev/output.ts.
 */
import { spawn } from 'child_process';
import { supervise } from './dev/supervise';
import fs from 'fs';
import path from 'path';
import { ensureEmbeddedPostgres, type EmbeddedPostgres } from '../db/embedded';
import { migrateLatest } from '../db/migrate';
import { ensureDemoCredentials } from '../services/demo';
import { parseConfig } from '../core/config';
import { pickPort, portAccepts, portFree } from '../core/ports';
import { pidAlive, sleep } from '../core/processes';
import { CHILD_STOP_MS, signalGroup, startManaged, stopManaged, type Managed } from './dev/managed';
import { paint, say } from './dev/output';
import { describePortHolder } from './dev/port-holder';
import { DevStateFile } from './dev/state';
import { startTemporal } from './dev/temporal';

const ROOT = path.resolve(__dirname, '..');
const API_READY_MS = 60_000;

let shuttingDown = false;
let pg: EmbeddedPostgres | null = null;
let pgStarting: Promise<EmbeddedPostgres | null> | null = null;
let temporal: Managed | null = null;
const apps: Managed[] = [];
let devState: DevStateFile | null = null;
let watchdogPid: number | undefined;
let baseUrl: string | undefined;

function recordChildren(): void {
  devState?.record(
    {
      temporal: temporal?.child.pid,
      ...Object.fromEntries(apps.map((a) => [a.name, a.child.pid])),
      // The embedded server this launcher started (stopped last).
      postgres: pg && !pg.reused ? pg.pid() : undefined,
    },
    baseUrl,
  );
}

function maskPassword(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '****';
    return u.toString();
  } catch {
    return url;
  }
}

function printBanner(rows: Array<[string, string]>, listening: boolean, dataDir: string): void {
  const width = Math.max(...rows.map(([k]) => k.length));
  const line = '─'.repeat(72);
  const out = [
    '',
    paint(1, line),
    paint(1, `  Forms, scheduling & sequences: development environment is ${listening ? 'up' : 'starting (the API is not answering yet)'}`),
    paint(1, line),
    ...rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`),
    paint(1, line),
    `  Data in ${dataDir}. Press Ctrl-C to stop.`,
    '',
  ];
  process.stdout.write(out.join('\n') + '\n');
}

async function main(): Promise<void> {
  const dataDir = path.resolve(process.env.DATA_DIR || path.join(ROOT, '.data'));
  fs.mkdirSync(dataDir, { recursive: true });
  devState = new DevStateFile(dataDir);
  await devState.claim();
  startWatchdog(devState);

  const apiPort = Number(process.env.PORT || 3000);
  const apiHost = process.env.HOST || '0.0.0.0';
  if (!(await portFree(apiPort, apiHost))) {
    throw new Error(`port ${apiPort} is already in use by ${describePortHolder(apiPort)}. Stop it, or set PORT to another port.`);
  }
  const inboundPort = await inboundSmtpPort();
  baseUrl = (process.env.BASE_URL || `http://localhost:${apiPort}`).replace(/\/$/, '');

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    NODE_ENV: process.env.NODE_ENV || 'development',
    // A local webhook receiver (http://127.0.0.1:…) is the first thing an integrator tries.
    ALLOW_LOOPBACK_WEBHOOK_URLS: process.env.ALLOW_LOOPBACK_WEBHOOK_URLS || 'true',
    INBOUND_SMTP_PORT: String(inboundPort),
  };

  // Temporal starts in the background while Postgres and the migrations run.
  let temporalUi: string | null = process.env.TEMPORAL_UI_URL || null;
  let temporalReady: Promise<void> = Promise.resolve();
  if (!process.env.TEMPORAL_ADDRESS) {
    const t = await startTemporal(dataDir, () => shuttingDown);
    temporal = t.managed;
    recordChildren();
    env.TEMPORAL_ADDRESS = t.address;
    env.TEMPORAL_NAMESPACE = 'default';
    temporalUi = `http://localhost:${t.uiPort}`;
    temporalReady = t.ready;
    temporalReady.catch(() => undefined); // awaited below; avoid an unhandled rejection meanwhile
  } else {
    say(`using Temporal at ${process.env.TEMPORAL_ADDRESS} (namespace ${process.env.TEMPORAL_NAMESPACE || 'default'})`);
  }

  let databaseUrl = process.env.DATABASE_URL;
  let shownDatabaseUrl: string;
  if (!databaseUrl) {
    say('starting the embedded PostgreSQL server');
    const starting = ensureEmbeddedPostgres({ dataDir, name: 'dev', log: (line) => say(`postgres: ${line}`) });
    pgStarting = starting.catch(() => null); // so that a Ctrl-C meanwhile still stops it
    pg = await starting;
    databaseUrl = pg.url;
    shownDatabaseUrl = pg.url;
    recordChildren();
    env.DATABASE_URL = databaseUrl;
  } else {
    shownDatabaseUrl = maskPassword(databaseUrl);
    say(`using DATABASE_URL ${shownDatabaseUrl}`);
  }
  if (shuttingDown) return;

  say('running migrations');
  await migrateLatest(databaseUrl);
  if (shuttingDown) return;
  // The demo owner's password is hashed at the children's PASSWORD_HASH_* cost.
  const demo = await ensureDemoCredentials(databaseUrl, dataDir, parseConfig(env));
  if (shuttingDown) return;

  await temporalReady;
  if (shuttingDown) return;

  for (const [name, file, c] of [
    ['api', 'bin/api.ts', 32],
    ['worker', 'bin/worker.ts', 36],
    ['inbound', 'bin/inbound.ts', 35],
  ] as const) {
    const slot = apps.length;
    supervise({
      name,
      start: () => startManaged(name, c, process.execPath, ['--import', 'tsx', file], env),
      started: (m) => {
        apps[slot] = m;
        recordChildren();
      },
      stopping: () => shuttingDown,
      giveUp: () => void shutdown(1),
    });
  }
  if (temporal) {
    const t = temporal;
    void t.exited.then(() => {
      if (shuttingDown) return;
      say('the Temporal dev server exited unexpectedly: stopping everything');
      void shutdown(1);
    });
  }
  recordChildren();

  // Print the banner once the API answers (or after a while, anyway).
  const deadline = Date.now() + API_READY_MS;
  let listening = false;
  while (!shuttingDown && Date.now() < deadline) {
    if ((listening = await portAccepts(apiPort))) break;
    await sleep(250);
  }
  if (shuttingDown) return;

  printBanner(
    [
      ['API', baseUrl],
      ['OpenAPI docs', `${baseUrl}/docs`],
      ['Temporal UI', temporalUi ?? `(external Temporal at ${env.TEMPORAL_ADDRESS}; set TEMPORAL_UI_URL to show its UI here)`],
      ['Postgres', shownDatabaseUrl],
      [
        'Mail',
        `in: smtp://localhost:${inboundPort} (bounces and replies); out: ${env.SMTP_URL ? maskPassword(env.SMTP_URL) : `files in ${path.join(dataDir, 'mail')}`}`,
      ],
      [
        'SMS',
        env.TWILIO_ACCOUNT_SID && env.TWILIO_AUTH_TOKEN
          ? `Twilio, account ${env.TWILIO_ACCOUNT_SID.slice(0, 6)}…${env.TWILIO_API_BASE_URL ? ` via ${env.TWILIO_API_BASE_URL}` : ''}`
          : `files in ${path.join(dataDir, 'sms')} (set TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN to send)`,
      ],
      ['Demo API key', demo.apiKey],
      ['Demo login', `${demo.email} / ${demo.password}`],
      ['Try', `curl -H "Authorization: Bearer ${demo.apiKey}" ${baseUrl}/api/v1/me`],
    ],
    listening,
    dataDir,
  );
}

/**
 * The watchdog: a process of its own (own group, so a Ctrl-C does not reach it) that stops the
 * children recorded in dev.json when this launcher dies without stopping them.
 */
function startWatchdog(state: DevStateFile): void {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'dev', 'watchdog.ts'), String(process.pid), state.file], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  child.unref();
  watchdogPid = child.pid;
  state.record({}, undefined, watchdogPid);
}

/** INBOUND_SMTP_PORT (2525): when another program holds it, say which, and take a free port instead. */
async function inboundSmtpPort(): Promise<number> {
  const wanted = Number(process.env.INBOUND_SMTP_PORT || 2525);
  const host = process.env.INBOUND_SMTP_HOST || '0.0.0.0';
  if (wanted === 0 || (await portFree(wanted, host))) return wanted;
  const port = await pickPort([]);
  say(`port ${wanted} (inbound SMTP) is in use by ${describePortHolder(wanted)}: the inbound listener takes ${port} instead`);
  return port;
}

// ----------------------------------------------------------------- shutdown
let firstSignalAt = 0;

async function shutdown(code: number): Promise<void> {
  if (shuttingDown) return;
  shuttingDown = true;
  say('stopping...');
  try {
    await Promise.all(apps.map((a) => stopManaged(a)));
    if (temporal) {
      say('stopping the Temporal dev server');
      await stopManaged(temporal, CHILD_STOP_MS, true);
    }
    const db = pg ?? (pgStarting ? await pgStarting : null);
    await db?.stop();
  } catch (e) {
    process.stderr.write(`[dev] error while stopping: ${(e as Error).message}\n`);
    code = code || 1;
  }
  devState?.release();
  if (pidAlive(watchdogPid)) process.kill(watchdogPid, 'SIGTERM');
  say('stopped');
  process.exit(code);
}

function onSignal(signal: NodeJS.Signals): void {
  if (!shuttingDown) {
    firstSignalAt = Date.now();
    say(`${signal} received`);
    void shutdown(0);
    return;
  }
  // A second Ctrl-C (not the echo of the first one that a wrapper such as
  // npm or tsx relays) kills the children at once.
  if (Date.now() - firstSignalAt < 1500) return;
  say('forcing: killing the processes');
  for (const a of apps) signalGroup(a, 'SIGKILL');
  if (temporal) signalGroup(temporal, 'SIGKILL');
}

process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);
process.on('SIGHUP', onSignal);

main().catch((err: unknown) => {
  process.stderr.write(`[dev] ${paint(31, 'failed')}: ${err instanceof Error ? err.message : String(err)}\n`);
  if (err instanceof Error && err.stack && process.env.DEV_DEBUG) process.stderr.write(err.stack + '\n');
  void shutdown(1);
});
