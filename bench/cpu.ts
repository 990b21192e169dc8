import fs from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ: 100 on Linux). */
const TICKS = 100;

function stat(pid: number): { ppid: number; ticks: number } | null {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
    // after the name: state ppid … utime(14) stime(15) cutime(16) cstime(17), counted from 3
    return { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]) };
  } catch {
    return null; // gone
  }
}

function allPids(): number[] {
  return fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map(Number);
}

function cmdline(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

/** A process and its descendants (e.g. a postmaster and its backends). */
function withDescendants(root: number): number[] {
  const parent = new Map(allPids().map((p) => [p, stat(p)?.ppid ?? 0]));
  const out = [root];
  for (let i = 0; i < out.length; i++) for (const [p, pp] of parent) if (pp === out[i]) out.push(p);
  return out;
}

export interface CpuGroups {
  [name: string]: () => number[];
}

/**
 * The processes of a bench environment, by role: this process (the worker when it runs here,
 * the relay, the SMTP sink), the API and worker processes, the Temporal server listening on
 * `temporalPort`, and the Postgres server on `pgPort` with its backends.
 */
export function benchProcesses(opts: { apiPids: number[]; workerPids: number[]; temporalPort: number; pgPort: number }): CpuGroups {
  const findOne = (re: RegExp) => () => allPids().filter((p) => re.test(cmdline(p)));
  const temporal = findOne(new RegExp(`temporal.* start-dev .*--port ${opts.temporalPort}\\b`));
  const postmaster = findOne(new RegExp(`postgres .*-p ${opts.pgPort}\\b`));
  return {
    'Temporal server': temporal,
    Postgres: () => postmaster().flatMap(withDescendants),
    'bench process': () => [process.pid],
    ...(opts.apiPids.length ? { API: () => opts.apiPids } : {}),
    ...(opts.workerPids.length ? { workers: () => opts.workerPids.flatMap(withDescendants) } : {}),
  };
}

/** CPU seconds used so far by each group (user + system, including reaped children). */
export function cpuSeconds(groups: CpuGroups): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, pids] of Object.entries(groups)) {
    out[name] = pids().reduce((sum, p) => sum + (stat(p)?.ticks ?? 0), 0) / TICKS;
  }
  return out;
}

/** "Temporal server 12.3 ms, Postgres 4.5 ms, …" per unit of work between two snapshots. */
export function cpuPer(before: Record<string, number>, after: Record<string, number>, units: number): string {
  const parts = Object.keys(after).map((k) => [k, ((after[k] - (before[k] ?? 0)) / units) * 1000] as const);
  const total = parts.reduce((s, [, v]) => s + v, 0);
  return `${parts.map(([k, v]) => `${k} ${v.toFixed(1)} ms`).join(', ')}; all ${total.toFixed(1)} ms`;
}
