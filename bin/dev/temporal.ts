/**
 * The Temporal dev server of `npm run dev`: `temporal server start-dev` with a SQLite file in
 * DATA_DIR, its ports remembered in `<DATA_DIR>/temporal.json`, our search attributes registered.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { LOCAL_HOST, pickPort, portAccepts } from '../../core/ports';
import { sleep } from '../../core/processes';
import { findTemporalCli } from '../../temporal/binaries';
import { SEARCH_ATTRIBUTES } from '../../temporal/search-attributes';
import { startManaged, type Managed } from './managed';
import { say } from './output';

const TEMPORAL_READY_MS = 60_000;

interface TemporalState {
  port?: number;
  uiPort?: number;
}

export interface DevTemporal {
  managed: Managed;
  address: string;
  uiPort: number;
  /** Resolves once the frontend answers and the search attributes exist. */
  ready: Promise<void>;
}

function readState(file: string): TemporalState {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as TemporalState;
  } catch {
    return {};
  }
}

/** Start the dev server; `stopping()` says the launcher is shutting down (stop waiting). */
export async function startTemporal(dataDir: string, stopping: () => boolean): Promise<DevTemporal> {
  const cli = findTemporalCli();
  const stateFile = path.join(dataDir, 'temporal.json');
  const prev = readState(stateFile);
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
    LOCAL_HOST,
    '--port',
    String(port),
    '--ui-port',
    String(uiPort),
    '--db-filename',
    path.join(dataDir, 'temporal.sqlite'),
    // WAL and synchronous=normal: 2.4-4.4x the workflows/s of the default rollback journal
    // (docs/decisions.md "The Temporal dev server"; temporal/dev-server.ts holds the same list).
    '--sqlite-pragma',
    'journal_mode=wal',
    '--sqlite-pragma',
    'synchronous=normal',
    '--namespace',
    'default',
    '--log-level',
    'warn',
  ];
  for (const [name, type] of Object.entries(SEARCH_ATTRIBUTES)) args.push('--search-attribute', `${name}=${type}`);
  say(`starting the Temporal dev server on ${LOCAL_HOST}:${port}`);
  // Its own client logs "network dial error" until its frontend is up: noise.
  const managed = startManaged('temporal', 35, cli, args, process.env, /network dial error/);
  const address = `${LOCAL_HOST}:${port}`;

  const ready = (async () => {
    const deadline = Date.now() + TEMPORAL_READY_MS;
    while (!(await portAccepts(port))) {
      if (managed.done) throw new Error(`the Temporal dev server exited during start-up (see the [temporal] lines above)`);
      if (stopping()) return;
      if (Date.now() > deadline) {
        throw new Error(`the Temporal dev server did not accept connections on ${address} within ${TEMPORAL_READY_MS / 1000}s`);
      }
      await sleep(200);
    }
    await ensureSearchAttributes(cli, address, stopping);
  })();
  return { managed, address, uiPort, ready };
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
async function ensureSearchAttributes(cli: string, address: string, stopping: () => boolean): Promise<void> {
  const conn = ['--address', address, '--namespace', 'default'];
  let existing: Record<string, string> = {};
  for (let attempt = 0; ; attempt++) {
    try {
      const out = await runCli(cli, ['operator', 'search-attribute', 'list', ...conn, '-o', 'json']);
      existing = (JSON.parse(out) as { customAttributes?: Record<string, string> }).customAttributes ?? {};
      break;
    } catch (e) {
      if (attempt >= 20 || stopping()) throw e;
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
