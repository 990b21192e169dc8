/** The PostgreSQL server process of a cluster: find a running one, start one, check it answers. */
import fs from 'node:fs';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { Client } from 'pg';
import { pidAlive, processArgs, signalAndWait, sleep } from '../../core/processes';
import { PG_PASSWORD, PG_USER } from './initdb';
import type { Placement } from './placement';

export const HOST = '127.0.0.1';
const START_TIMEOUT_MS = 60_000;

export function pgUrl(port: number, database: string): string {
  return `postgres://${PG_USER}:${PG_PASSWORD}@${HOST}:${port}/${database}`;
}

/**
 * Whether `pid` is a postgres server on `clusterDir`. Where /proc exists the
 * command line is checked (a pid left in a stale postmaster.pid is often
 * recycled by an unrelated process after a restart); elsewhere, liveness only.
 */
function isOurPostmaster(pid: number, clusterDir: string): boolean {
  if (!pidAlive(pid)) return false;
  const args = processArgs(pid);
  if (args === null) return process.platform !== 'linux';
  if (!args.some((a) => path.basename(a) === 'postgres' || a.endsWith('/postgres'))) return false;
  const d = args.indexOf('-D');
  if (d >= 0 && args[d + 1]) return path.resolve(args[d + 1]) === clusterDir;
  return true; // started some other way (e.g. PGDATA): trust postmaster.pid
}

/** pid and port from the cluster's postmaster.pid, or null when there is none. */
export function readPostmasterPid(clusterDir: string): { pid: number; port: number | null } | null {
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
export async function findRunningServer(clusterDir: string, log: (line: string) => void): Promise<{ port: number } | null> {
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

/** The end of a file from `offset` (at most 64 KB). */
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

export class StartError extends Error {
  constructor(
    message: string,
    readonly addressInUse: boolean,
  ) {
    super(message);
  }
}

export async function canQuery(port: number): Promise<boolean> {
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

/**
 * Start the server in its own process group (a Ctrl-C in the terminal does not reach it), on
 * 127.0.0.1 only and without a Unix socket; resolves once it answers queries.
 */
export async function startServer(place: Placement, port: number, logFile: string, log: (line: string) => void): Promise<ChildProcess> {
  const bin = path.join(place.nativeDir, 'bin', 'postgres');
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
    child = spawn(bin, ['-D', place.clusterDir, '-p', String(port), '-c', `listen_addresses=${HOST}`, '-c', 'unix_socket_directories='], {
      ...place.ids,
      cwd: place.cwd,
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
  child.once('error', (e) => (exit = `could not run ${bin}: ${e.message}`));

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

/** CREATE DATABASE unless it exists (safe against a concurrent creator). */
export async function ensureDatabase(port: number, database: string): Promise<void> {
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
