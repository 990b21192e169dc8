/**
 * `<DATA_DIR>/dev.json`: one `npm run dev` per data folder, the pids of its children (so that the
 * next run stops what a launcher killed outright left running), and the URL its API answers on
 * (read by `npm run cli -- bootstrap`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { pidAlive, processArgs, sleep } from '../../core/processes';
import { say } from './output';

export interface DevState {
  pid: number;
  children: Record<string, number | undefined>;
  /** The API's base URL, once it is started. */
  base_url?: string;
}

/** Markers that identify each kind of child in /proc/<pid>/cmdline. */
const CHILD_MARKERS: Record<string, string> = { temporal: 'start-dev', api: 'bin/api.ts', worker: 'bin/worker.ts', postgres: 'postgres' };

const cmdline = (pid: number) => processArgs(pid)?.join(' ') ?? null;

function readJson<T>(file: string): T | null {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
  } catch {
    return null;
  }
}

export const devStateFile = (dataDir: string) => path.join(dataDir, 'dev.json');

/** The state of the `npm run dev` running on `dataDir`, or null when none runs. */
export function runningDev(dataDir: string): DevState | null {
  const state = readJson<DevState>(devStateFile(dataDir));
  if (!state || !pidAlive(state.pid)) return null;
  const cl = cmdline(state.pid);
  return cl === null || cl.includes('bin/dev.ts') ? state : null;
}

async function stopLeftover(name: string, pid: number): Promise<void> {
  const cl = cmdline(pid);
  if (cl !== null && !cl.includes(CHILD_MARKERS[name] ?? '\0')) return; // pid recycled
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
      // The previous launcher died without cleaning up: stop what it left running, in order.
      for (const [name, pid] of Object.entries(prev?.children ?? {})) {
        if (pidAlive(pid)) await stopLeftover(name, pid);
      }
      fs.rmSync(this.file, { force: true });
    }
    throw new Error(`could not create ${this.file}`);
  }

  /** Record the children (stopped in this order if the launcher gets killed) and the API URL. */
  record(children: DevState['children'], baseUrl?: string): void {
    if (!this.owned) return;
    const state: DevState = { pid: process.pid, children, ...(baseUrl ? { base_url: baseUrl } : {}) };
    fs.writeFileSync(this.file, JSON.stringify(state, null, 2));
  }

  release(): void {
    if (this.owned) fs.rmSync(this.file, { force: true });
    this.owned = false;
  }
}
