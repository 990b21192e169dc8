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
 * the Temporal dev server, the embedded Postgres; then exits 0. If a child dies
 * on its own, everything is stopped and the exit code is 1.
 *
 * Children run in their own process groups so that a Ctrl-C in the terminal
 * reaches only this launcher, which then stops them in the right order. Their
 * pids are kept in <DATA_DIR>/dev.json; if the launcher itself was killed
 * outright, the next run stops the leftovers before starting.
 *
 * Reads process.env only (no .env file). Environment:
 *   DATA_DIR (default <repo>/.data), DATABASE_URL, TEMPORAL_ADDRESS,
 *   TEMPORAL_NAMESPACE, PORT (3000), HOST, BASE_URL.
 */
import { spawn, execFile, ChildProcess } from 'child_process';
import fs from 'fs';
import net from 'net';
import path from 'path';
import readline from 'readline';
import { ensureEmbeddedPostgres, type EmbeddedPostgres } from '../db/embedded';
import { migrateLatest } from '../db/migrate';
import { SEARCH_ATTRIBUTES } from '../temporal/search-attributes';
import { ensureDemoCredentials } from '../services/demo';
import { findTemporalCli } from '../temporal/binaries';

const ROOT = path.resolve(__dirname, '..');
const LOCAL = '127.0.0.1';
const CHILD_STOP_MS = 10_000;
const TEMPORAL_READY_MS = 60_000;
const API_READY_MS = 60_000;

const color = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code: number, s: string) => (color ? `\x1b[${code}m${s}\x1b[0m` : s);
const say = (msg: string) => process.stdout.write(`${paint(1, '[dev]')} ${msg}\n`);
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// -------------------------------------------------------------------- state
interface Managed {
  name: string;
  child: ChildProcess;
  exited: Promise<void>;
  done: boolean;
  quiet: boolean; // stop forwarding output (while it shuts down)
}

let shuttingDown = false;
let pg: EmbeddedPostgres | null = null;
let pgStarting: Promise<EmbeddedPostgres | null> | null = null;
let temporal: Managed | null = null;
const apps: Managed[] = [];
let stateFile = '';
let ownsStateFile = false;

// -------------------------------------------------------------------- ports
function listenOnce(port: number, host: string): Promise<number | null> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(null));
    server.listen({ port, host, exclusive: true }, () => {
      const addr = server.address();
      const got = typeof addr === 'object' && addr ? addr.port : null;
      server.close(() => resolve(got));
    });
  });
}

const portFree = async (port: number, host = LOCAL) => (await listenOnce(port, host)) !== null;

async function freePort(): Promise<number> {
  const p = await listenOnce(0, LOCAL);
  if (!p) throw new Error('could not find a free TCP port on 127.0.0.1');
  return p;
}

/** The first free port among the candidates, else a random free one. */
async function pickPort(candidates: Array<number | undefined>, avoid: number[] = []): Promise<number> {
  for (const p of candidates) {
    if (p && !avoid.includes(p) && (await portFree(p))) return p;
  }
  for (;;) {
    const p = await freePort();
    if (!avoid.includes(p)) return p;
  }
}

function portAccepts(port: number, host = LOCAL): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

function readJson<T>(file: string): T | null {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
  } catch {
    return null;
  }
}

// ------------------------------------------------------------ child processes
function pidAlive(pid: number | undefined): pid is number {
  if (!pid || !Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function cmdline(pid: number): string | null {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return null;
  }
}

function forward(stream: NodeJS.ReadableStream | null, out: NodeJS.WriteStream, prefix: string, m: () => Managed | null, drop?: RegExp) {
  if (!stream) return;
  const rl = readline.createInterface({ input: stream, crlfDelay: Infinity });
  rl.on('line', (line) => {
    const managed = m();
    if (managed?.quiet) return;
    if (drop && drop.test(line)) return;
    out.write(`${prefix} ${line}\n`);
  });
}

function startManaged(name: string, prefixColor: number, command: string, args: string[], env: NodeJS.ProcessEnv, drop?: RegExp): Managed {
  const child = spawn(command, args, { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let managed: Managed | null = null;
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', (e) => {
      process.stderr.write(`[dev] could not start ${name}: ${e.message}\n`);
      resolve();
    });
  });
  managed = { name, child, exited, done: false, quiet: false };
  const m = managed;
  void exited.then(() => (m.done = true));
  const prefix = paint(prefixColor, `[${name}]`);
  forward(child.stdout, process.stdout, prefix, () => m, drop);
  forward(child.stderr, process.stderr, prefix, () => m, drop);
  return m;
}

function signalGroup(m: Managed, signal: NodeJS.Signals): void {
  const pid = m.child.pid;
  if (!pid || m.done) return;
  try {
    process.kill(-pid, signal); // its whole process group
  } catch {
    try {
      m.child.kill(signal);
    } catch {
      /* gone */
    }
  }
}

async function stopManaged(m: Managed | null, timeoutMs = CHILD_STOP_MS, quiet = false): Promise<void> {
  if (!m || m.done) return;
  if (quiet) m.quiet = true;
  signalGroup(m, 'SIGTERM');
  const stopped = await Promise.race([m.exited.then(() => true), sleep(timeoutMs).then(() => false)]);
  if (!stopped) {
    say(`${m.name} did not stop within ${timeoutMs / 1000}s: killing it`);
    signalGroup(m, 'SIGKILL');
    await Promise.race([m.exited, sleep(5_000)]);
  }
}

// ------------------------------------------------ single instance + leftovers
interface DevState {
  pid: number;
  children: Record<string, number | undefined>;
}

/** Markers that identify each kind of child in /proc/<pid>/cmdline. */
const CHILD_MARKERS: Record<string, string> = { temporal: 'start-dev', api: 'bin/api.ts', worker: 'bin/worker.ts', postgres: 'postgres' };

async function claimStateFile(dataDir: string): Promise<void> {
  stateFile = path.join(dataDir, 'dev.json');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(stateFile, JSON.stringify({ pid: process.pid, children: {} } satisfies DevState, null, 2), { flag: 'wx' });
      ownsStateFile = true;
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const prev = readJson<DevState>(stateFile);
    if (prev && prev.pid !== process.pid && pidAlive(prev.pid) && (cmdline(prev.pid) ?? 'dev').includes('dev')) {
      throw new Error(`another \`npm run dev\` is already running (pid ${prev.pid}, ${stateFile}); stop it first`);
    }
    // The previous launcher died without cleaning up: stop what it left running.
    for (const [name, pid] of Object.entries(prev?.children ?? {})) {
      if (!pidAlive(pid)) continue;
      const cl = cmdline(pid);
      if (cl !== null && !cl.includes(CHILD_MARKERS[name] ?? '\0')) continue; // pid recycled
      say(`stopping ${name} (pid ${pid}) left over from an earlier run`);
      try {
        process.kill(-pid, 'SIGTERM');
      } catch {
        try {
          process.kill(pid, 'SIGTERM');
        } catch {
          /* gone */
        }
      }
      for (let i = 0; i < 50 && pidAlive(pid); i++) await sleep(100);
      if (pidAlive(pid)) {
        try {
          process.kill(-pid, 'SIGKILL');
        } catch {
          /* gone */
        }
      }
    }
    fs.rmSync(stateFile, { force: true });
  }
  throw new Error(`could not create ${stateFile}`);
}

function postmasterPid(dataDir: string): number | undefined {
  try {
    const pid = Number(fs.readFileSync(path.join(dataDir, 'pg-dev', 'postmaster.pid'), 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function recordChildren(): void {
  if (!ownsStateFile) return;
  const state: DevState = {
    pid: process.pid,
    children: {
      temporal: temporal?.child.pid,
      ...Object.fromEntries(apps.map((a) => [a.name, a.child.pid])),
      // The embedded server this launcher started (stopped last, as the
      // entries are stopped in this order if the launcher gets killed).
      postgres: pg && !pg.reused ? postmasterPid(path.dirname(stateFile)) : undefined,
    },
  };
  fs.writeFileSync(stateFile, JSON.stringify(state, null, 2));
}

// ----------------------------------------------------------------- Temporal
interface TemporalState {
  port?: number;
  uiPort?: number;
}

async function startTemporal(dataDir: string): Promise<{ address: string; uiPort: number; ready: Promise<void> }> {
  const cli = findTemporalCli();
  const stateFile = path.join(dataDir, 'temporal.json');
  const prev = readJson<TemporalState>(stateFile) ?? {};
  const port = await pickPort([7233, prev.port]);
  const uiPort = await pickPort([8233, prev.uiPort], [port]);
  if (port !== prev.port || uiPort !== prev.uiPort) {
    fs.writeFileSync(stateFile, JSON.stringify({ port, uiPort } satisfies TemporalState, null, 2) + '\n');
  }
  if (port !== 7233) say(`port 7233 is taken: Temporal listens on ${port}`);
  if (uiPort !== 8233) say(`port 8233 is taken: the Temporal UI listens on ${uiPort}`);

  const args = [
    'server',
    'start-dev',
    '--ip',
    LOCAL,
    '--port',
    String(port),
    '--ui-port',
    String(uiPort),
    '--db-filename',
    path.join(dataDir, 'temporal.sqlite'),
    '--namespace',
    'default',
    '--log-level',
    'warn',
  ];
  for (const [name, type] of Object.entries(SEARCH_ATTRIBUTES)) args.push('--search-attribute', `${name}=${type}`);
  say(`starting the Temporal dev server on ${LOCAL}:${port}`);
  // Its own client logs "network dial error" until its frontend is up: noise.
  temporal = startManaged('temporal', 35, cli, args, process.env, /network dial error/);
  recordChildren();
  const t = temporal;

  const ready = (async () => {
    const deadline = Date.now() + TEMPORAL_READY_MS;
    while (!(await portAccepts(port))) {
      if (t.done) throw new Error(`the Temporal dev server exited during start-up (see the [temporal] lines above)`);
      if (shuttingDown) return;
      if (Date.now() > deadline) {
        throw new Error(`the Temporal dev server did not accept connections on ${LOCAL}:${port} within ${TEMPORAL_READY_MS / 1000}s`);
      }
      await sleep(200);
    }
    await ensureSearchAttributes(cli, `${LOCAL}:${port}`);
  })();
  return { address: `${LOCAL}:${port}`, uiPort, ready };
}

function runCli(cli: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(cli, args, { timeout: 20_000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`temporal ${args.slice(0, 3).join(' ')} failed: ${stderr || err.message}`));
      else resolve(stdout);
    });
  });
}

/**
 * `start-dev --search-attribute` registers attributes only when it creates the
 * SQLite file; ones added to SEARCH_ATTRIBUTES later are created here.
 */
async function ensureSearchAttributes(cli: string, address: string): Promise<void> {
  const conn = ['--address', address, '--namespace', 'default'];
  let existing: Record<string, string> = {};
  for (let attempt = 0; ; attempt++) {
    try {
      const out = await runCli(cli, ['operator', 'search-attribute', 'list', ...conn, '-o', 'json']);
      existing = (JSON.parse(out) as { customAttributes?: Record<string, string> }).customAttributes ?? {};
      break;
    } catch (e) {
      if (attempt >= 20 || shuttingDown) throw e;
      await sleep(500); // frontend up, namespace not ready yet
    }
  }
  const byType = new Map<string, string[]>();
  for (const [name, type] of Object.entries(SEARCH_ATTRIBUTES) as Array<[string, string]>) {
    if (name in existing) continue;
    byType.set(type, [...(byType.get(type) ?? []), name]);
  }
  for (const [type, names] of byType) {
    say(`registering search attributes ${names.join(', ')} (${type})`);
    await runCli(cli, ['operator', 'search-attribute', 'create', ...conn, '--type', type, ...names.flatMap((n) => ['--name', n])]);
  }
}

// --------------------------------------------------------------------- main
function maskPassword(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '****';
    return u.toString();
  } catch {
    return url;
  }
}

async function main(): Promise<void> {
  const dataDir = path.resolve(process.env.DATA_DIR || path.join(ROOT, '.data'));
  fs.mkdirSync(dataDir, { recursive: true });
  await claimStateFile(dataDir);

  const apiPort = Number(process.env.PORT || 3000);
  const apiHost = process.env.HOST || '0.0.0.0';
  if (!(await portFree(apiPort, apiHost))) {
    throw new Error(`port ${apiPort} is already in use (is another API running?). Free it, or set PORT to another port.`);
  }

  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, NODE_ENV: process.env.NODE_ENV || 'development' };

  // Temporal starts in the background while Postgres and the migrations run.
  let temporalUi: string | null = process.env.TEMPORAL_UI_URL || null;
  let temporalReady: Promise<void> = Promise.resolve();
  if (!process.env.TEMPORAL_ADDRESS) {
    const t = await startTemporal(dataDir);
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
  const demo = await ensureDemoCredentials(databaseUrl, dataDir);
  if (shuttingDown) return;

  await temporalReady;
  if (shuttingDown) return;

  for (const [name, file, c] of [
    ['api', 'bin/api.ts', 32],
    ['worker', 'bin/worker.ts', 36],
    ['inbound', 'bin/inbound.ts', 35],
  ] as const) {
    const m = startManaged(name, c, process.execPath, ['--import', 'tsx', file], env);
    apps.push(m);
    void m.exited.then(() => {
      if (shuttingDown) return;
      const { exitCode, signalCode } = m.child;
      say(`${name} exited unexpectedly (${signalCode ? `signal ${signalCode}` : `exit code ${exitCode}`}): stopping everything`);
      void shutdown(1);
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

  const base = (process.env.BASE_URL || `http://localhost:${apiPort}`).replace(/\/$/, '');
  const rows: Array<[string, string]> = [
    ['API', base],
    ['OpenAPI docs', `${base}/docs`],
    ['Temporal UI', temporalUi ?? `(external Temporal at ${env.TEMPORAL_ADDRESS}; set TEMPORAL_UI_URL to show its UI here)`],
    ['Postgres', shownDatabaseUrl],
    [
      'Mail',
      `in: smtp://localhost:${env.INBOUND_SMTP_PORT || 2525} (bounces and replies); out: ${env.SMTP_URL ? maskPassword(env.SMTP_URL) : `files in ${path.join(dataDir, 'mail')}`}`,
    ],
    ['Demo API key', demo.apiKey],
    ['Demo login', `${demo.email} / ${demo.password}`],
    ['Try', `curl -H "Authorization: Bearer ${demo.apiKey}" ${base}/api/v1/me`],
  ];
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
  if (ownsStateFile) fs.rmSync(stateFile, { force: true });
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
