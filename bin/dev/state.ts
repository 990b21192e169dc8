/**
 * `<DATA_DIR>/dev.json`: one `npm run dev` per data folder, the pids of its children and of its
 * watchdog (which stops the children when the launcher dies; the next run also stops whatever a
 * launcher killed outright left running), and the URL its API answers on (read by `npm run cli -- bootstrap`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { pidAlive, processArgs, sleep } from '../../core/processes';
import { say } from './output';

export interface DevState {
  pid: number;
  children: Record<string, number | undefined>;
  /** The watchdog (bin/dev/watchdog.ts) that stops the children if this launcher dies. */
  watchdog?: number;
  /** The API's base URL, once it is started. */
  base_url?: string;
}

/** Markers that identify each kind of child in /proc/<pid>/cmdline (a pid reused by another program is left alone). */
const CHILD_MARKERS: Record<string, string> = {
  temporal: 'start-dev',
  api: 'bin/api.ts',
  worker: 'bin/worker.ts',
  inbound: 'bin/inbound.ts',
  postgres: 'postgres',
  watchdog: 'bin/dev/watchdog.ts',
};

const cmdline = (pid: number) => processArgs(pid)?.join(' ') ?? null;

function readJson<T>(file: string): T | null {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
  } catch {
    return null;
  }
}

export const devStateFile = (dataDir: string) => path.join(dataDir, 'dev.json');

/** dev.json as it is on disk, or null. */
export const readDevState = (file: string) => readJson<DevState>(file);

/** The state of the `npm run dev` running on `dataDir`, or null when none runs. */
export function runningDev(dataDir: string): DevState | null {
  const state = readJson<DevState>(devStateFile(dataDir));
  if (!state || !pidAlive(state.pid)) return null;
  const cl = cmdline(state.pid);
  return cl === null || cl.includes('bin/dev.ts') ? state : null;
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(-pid, sig); // its process group: the children run detached, each leading one
  } catch {
    try {
      process.kill(pid, sig);
    } catch {
      /* gone */
    }
  }
}

/** Stop one process named in dev.json: SIGTERM (SIGINT, a fast shutdown, for PostgreSQL), SIGKILL after `graceMs`. */
async function stopOne(name: string, pid: number, graceMs: number, log: (msg: string) => void, why: string): Promise<void> {
  const cl = cmdline(pid);
  if (cl !== null && !cl.includes(CHILD_MARKERS[name] ?? '\0')) return; // pid recycled by another program
  log(`stopping ${name} (pid ${pid}) ${why}`);
  signal(pid, name === 'postgres' ? 'SIGINT' : 'SIGTERM');
  for (let waited = 0; waited < graceMs && pidAlive(pid); waited += 100) await sleep(100);
  if (pidAlive(pid) && name === 'postgres') {
    // An immediate shutdown: the postmaster stops its backends itself; the next start recovers from the WAL.
    log(`postgres (pid ${pid}) did not stop within ${graceMs / 1000}s: immediate shutdown`);
    signal(pid, 'SIGQUIT');
    for (let waited = 0; waited < 1000 && pidAlive(pid); waited += 100) await sleep(100);
  }
  if (pidAlive(pid)) {
    log(`${name} (pid ${pid}) did not stop: killing it`);
    signal(pid, 'SIGKILL');
  }
}

/**
 * Stop the processes a launcher recorded: the API, worker, inbound listener and Temporal at once,
 * then PostgreSQL (the others are its clients), or all at once with `together` (the watchdog: its
 * launcher is gone and every second counts). Used at start for the leftovers of a launcher that
 * was killed, and by the watchdog when its launcher dies.
 */
export async function stopRecorded(
  children: DevState['children'],
  opts: { graceMs?: number; log?: (msg: string) => void; why?: string; together?: boolean } = {},
): Promise<void> {
  const { graceMs = 5000, log = say, why = 'left over from an earlier run' } = opts;
  const alive = Object.entries(children).filter((e): e is [string, number] => pidAlive(e[1]));
  const last = (n: string) => n === 'postgres' && !opts.together;
  await Promise.all(alive.filter(([n]) => !last(n)).map(([n, pid]) => stopOne(n, pid, graceMs, log, why)));
  await Promise.all(alive.filter(([n]) => last(n)).map(([n, pid]) => stopOne(n, pid, graceMs, log, why)));
}

export class DevStateFile {
  private owned = false;
  readonly file: string;

  constructor(dataDir: string) {
    this.file = devStateFile(dataDir);
  }

  /** Create dev.json for this process; refuse when another launcher runs; stop a dead one's children. */
  async claim(): Promise<void> {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        fs.writeFileSync(this.file, JSON.stringify({ pid: process.pid, children: {} } satisfies DevState, null, 2), { flag: 'wx' });
        this.owned = true;
        return;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      const prev = readJson<DevState>(this.file);
      if (prev && prev.pid !== process.pid && pidAlive(prev.pid) && (cmdline(prev.pid) ?? 'dev').includes('dev')) {
        throw new Error(`another \`npm run dev\` is already running (pid ${prev.pid}, ${this.file}); stop it first`);
      }
      // The previous launcher died without cleaning up: stop its watchdog, then what it left running.
      await stopRecorded({ watchdog: prev?.watchdog });
      await stopRecorded(prev?.children ?? {});
      fs.rmSync(this.file, { force: true });
    }
    throw new Error(`could not create ${this.file}`);
  }

  private watchdog: number | undefined;

  /** Record the children (stopped if the launcher gets killed), the watchdog and the API URL. */
  record(children: DevState['children'], baseUrl?: string, watchdog = this.watchdog): void {
    if (!this.owned) return;
    this.watchdog = watchdog;
    const state: DevState = { pid: process.pid, children, ...(watchdog ? { watchdog } : {}), ...(baseUrl ? { base_url: baseUrl } : {}) };
    // Written aside and renamed over dev.json, so that a reader (the watchdog polls it) never sees
    // it half written: an empty read once made the watchdog take it as released and leave.
    const aside = `${this.file}.${process.pid}.tmp`;
    fs.writeFileSync(aside, JSON.stringify(state, null, 2));
    fs.renameSync(aside, this.file);
  }

  release(): void {
    if (this.owned) fs.rmSync(this.file, { force: true });
    this.owned = false;
  }
}
