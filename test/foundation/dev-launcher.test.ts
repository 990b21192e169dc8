/**
 * `npm run dev` comes back after a crash (bin/dev.ts, bin/dev/watchdog.ts, bin/dev/state.ts): the
 * real launcher with the embedded PostgreSQL, the Temporal dev server, the API, the worker and the
 * inbound listener, in a private data folder.
 *
 *   1. The launcher is killed with SIGKILL: no child outlives it by more than a few seconds.
 *   2. It starts again to a healthy /healthz. Then launcher and watchdog are both killed, leaving
 *      orphans (what happened before the watchdog existed).
 *   3. The next start stops every leftover dev.json names, the inbound listener included, moves
 *      the inbound listener off a port another program holds (naming that program), answers
 *      /healthz, and a SIGTERM stops everything and removes dev.json.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../core/ports';
import { pidAlive, sleep } from '../../core/processes';
import type { DevState } from '../../bin/dev/state';
import { runBundle } from '../helpers/entry-process';

const ROOT = path.resolve(__dirname, '..', '..');
const START_MS = 150_000;
/** "A few seconds": the watchdog polls every 250 ms and gives each child 2 s before SIGKILL. */
const ORPHAN_LIMIT_MS = 8_000;

jest.setTimeout(600_000);

interface Launcher {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

let dataDir: string;
let env: NodeJS.ProcessEnv;
let apiPort: number;
const launchers: Launcher[] = [];
const seen = new Set<number>();

function start(extra: NodeJS.ProcessEnv = {}): Launcher {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bin/dev.ts'], {
    cwd: ROOT,
    env: { ...env, ...extra },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr!.on('data', (b: Buffer) => (out += b.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const l = { child, output: () => out, exited };
  launchers.push(l);
  return l;
}

const readState = (): DevState | null => {
  try {
    return JSON.parse(fs.readFileSync(path.join(dataDir, 'dev.json'), 'utf8')) as DevState;
  } catch {
    return null;
  }
};

/** Until /healthz answers 200, dev.json names every child and the watchdog, and the banner is out; answers dev.json. */
async function healthy(l: Launcher): Promise<DevState> {
  const deadline = Date.now() + START_MS;
  while (Date.now() < deadline) {
    if (l.child.exitCode !== null) throw new Error(`the launcher exited (${l.child.exitCode}):\n${l.output()}`);
    const state = readState();
    const res = await fetch(`http://127.0.0.1:${apiPort}/healthz`).catch(() => null);
    const ready =
      !!state && state.pid === l.child.pid && ['api', 'worker', 'inbound', 'temporal', 'postgres'].every((n) => state.children[n]);
    if (state && ready && state.watchdog && res?.status === 200 && l.output().includes('development environment is up')) {
      for (const pid of [...Object.values(state.children), state.watchdog]) if (pid) seen.add(pid);
      return state;
    }
    await sleep(500);
  }
  throw new Error(`no healthy /healthz within ${START_MS / 1000}s:\n${l.output()}`);
}

const pidsOf = (s: DevState) => Object.values(s.children).filter((p): p is number => !!p);

/** Polls until every pid is gone; answers how long that took (or Infinity after `limitMs` × 2). */
async function allGone(pids: number[], limitMs: number): Promise<number> {
  const t0 = Date.now();
  while (pids.some(pidAlive)) {
    if (Date.now() - t0 > 2 * limitMs) return Infinity;
    await sleep(100);
  }
  return Date.now() - t0;
}

beforeAll(async () => {
  dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fss-dev-')), '.data');
  apiPort = await freePort();
  // The worker loads this run's workflow bundle instead of bundling at each of the three starts.
  env = { ...process.env, DATA_DIR: dataDir, PORT: String(apiPort), HOST: '127.0.0.1', NO_COLOR: '1', LOG_LEVEL: 'warn', ...runBundle() };
  // The launcher's own servers, not the test run's.
  for (const k of ['DATABASE_URL', 'TEMPORAL_ADDRESS', 'TEMPORAL_NAMESPACE', 'BASE_URL', 'INBOUND_SMTP_PORT', 'JEST_WORKER_ID'])
    delete env[k];
});

afterAll(async () => {
  // Whatever a failed step left running.
  for (const l of launchers) if (l.child.exitCode === null && l.child.signalCode === null) l.child.kill('SIGKILL');
  for (const pid of seen) {
    if (!pidAlive(pid)) continue;
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      /* not a group leader */
    }
    if (pidAlive(pid)) process.kill(pid, 'SIGKILL');
  }
  await allGone([...seen], 5_000);
  let clusterDir: string | undefined;
  try {
    clusterDir = JSON.parse(fs.readFileSync(path.join(dataDir, 'pg-dev.json'), 'utf8')).cluster_dir;
  } catch {
    /* never started */
  }
  const top = path.dirname(dataDir);
  fs.rmSync(top, { recursive: true, force: true });
  if (clusterDir && !clusterDir.startsWith(top)) fs.rmSync(path.dirname(clusterDir), { recursive: true, force: true });
});

it('a SIGKILLed launcher leaves no child behind, and the next start stops any leftover and comes back healthy', async () => {
  // 1. SIGKILL: the watchdog stops every child within a few seconds.
  const first = start();
  const s1 = await healthy(first);
  first.child.kill('SIGKILL');
  const gone1 = await allGone([...pidsOf(s1), s1.watchdog!], ORPHAN_LIMIT_MS);
  expect({ stillAlive: [...pidsOf(s1), s1.watchdog!].filter(pidAlive), tookMs: gone1 }).toEqual({
    stillAlive: [],
    tookMs: expect.any(Number),
  });
  const log = fs.readFileSync(path.join(dataDir, 'watchdog.log'), 'utf8');
  expect({ tookMs: gone1, log }).toEqual({ tookMs: expect.any(Number), log: expect.stringContaining('is gone') });
  expect(gone1).toBeLessThan(ORPHAN_LIMIT_MS);
  process.stdout.write(`[dev-launcher] every child gone ${gone1} ms after the launcher's SIGKILL\n`);
  expect(fs.readFileSync(path.join(dataDir, 'watchdog.log'), 'utf8')).toMatch(new RegExp(`launcher ${first.child.pid} is gone`));

  // 2. Again, to a healthy /healthz; then the launcher and its watchdog die together: orphans.
  const second = start();
  const s2 = await healthy(second);
  expect(s2.pid).toBe(second.child.pid);
  process.kill(s2.watchdog!, 'SIGKILL');
  second.child.kill('SIGKILL');
  await second.exited;
  expect(pidAlive(s2.children.inbound)).toBe(true);

  // 3. Another program holds the inbound port the next start asks for.
  const squatter = net.createServer();
  const held = await new Promise<number>((resolve) =>
    squatter.listen(0, '0.0.0.0', () => resolve((squatter.address() as net.AddressInfo).port)),
  );
  try {
    const third = start({ INBOUND_SMTP_PORT: String(held) });
    const s3 = await healthy(third);
    // The leftovers were stopped by name, the inbound listener among them, before anything started.
    expect(pidsOf(s2).filter(pidAlive)).toEqual([]);
    expect(third.output()).toContain(`stopping inbound (pid ${s2.children.inbound}) left over from an earlier run`);
    expect(third.output()).toMatch(
      new RegExp(`port ${held} \\(inbound SMTP\\) is in use by pid ${process.pid}: .*the inbound listener takes (\\d+) instead`),
    );
    const moved = Number(new RegExp(`takes (\\d+) instead`).exec(third.output())![1]);
    expect(moved).not.toBe(held);
    expect(third.output()).toContain(`in: smtp://localhost:${moved}`);

    // A normal stop: everything goes, dev.json is removed, exit code 0.
    third.child.kill('SIGTERM');
    expect(await third.exited).toBe(0);
    expect(await allGone([...pidsOf(s3), s3.watchdog!], 15_000)).toBeLessThan(15_000);
    expect(readState()).toBeNull();
  } finally {
    squatter.close();
  }
});
