/**
 * Child processes of `npm run dev` (API, worker, Temporal dev server): each in its own process
 * group, its output forwarded line by line with a `[name]` prefix.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { sleep } from '../../core/processes';
import { paint, say } from './output';

const ROOT = path.resolve(__dirname, '..', '..');
export const CHILD_STOP_MS = 10_000;

export interface Managed {
  name: string;
  child: ChildProcess;
  exited: Promise<void>;
  done: boolean;
  /** Stop forwarding output (while it shuts down). */
  quiet: boolean;
}

function forward(stream: NodeJS.ReadableStream | null, out: NodeJS.WriteStream, prefix: string, m: Managed, drop?: RegExp) {
  if (!stream) return;
  const rl = readline.createInterface({ input: stream, crlfDelay: Infinity });
  rl.on('line', (line) => {
    if (m.quiet) return;
    if (drop && drop.test(line)) return;
    out.write(`${prefix} ${line}\n`);
  });
}

/** Start `command` in the repository root; lines matching `drop` are not forwarded. */
export function startManaged(
  name: string,
  prefixColor: number,
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  drop?: RegExp,
): Managed {
  const child = spawn(command, args, { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', (e) => {
      process.stderr.write(`[dev] could not start ${name}: ${e.message}\n`);
      resolve();
    });
  });
  const m: Managed = { name, child, exited, done: false, quiet: false };
  void exited.then(() => (m.done = true));
  const prefix = paint(prefixColor, `[${name}]`);
  forward(child.stdout, process.stdout, prefix, m, drop);
  forward(child.stderr, process.stderr, prefix, m, drop);
  return m;
}

/** Signal the child's whole process group (or the child alone when that fails). */
export function signalGroup(m: Managed, signal: NodeJS.Signals): void {
  const pid = m.child.pid;
  if (!pid || m.done) return;
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      m.child.kill(signal);
    } catch {
      /* gone */
    }
  }
}

/** SIGTERM, then SIGKILL after `timeoutMs`. */
export async function stopManaged(m: Managed | null, timeoutMs = CHILD_STOP_MS, quiet = false): Promise<void> {
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
