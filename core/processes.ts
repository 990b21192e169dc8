/** Process helpers for the dev tooling (embedded PostgreSQL, `npm run dev`). */
import fs from 'node:fs';
import type { ChildProcess } from 'node:child_process';

/**
 * Whether a process with this pid runs (also when it belongs to another user). A zombie does not:
 * it has exited and only waits for its parent to collect it. An orphan's parent is PID 1, and not
 * every container's PID 1 collects (this machine's does not), so a stopped orphan can stay a zombie.
 */
export function pidAlive(pid: number | undefined): pid is number {
  if (!pid || !Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !exited(pid);
}

/** The state letter of /proc/<pid>/stat is Z (zombie) or X (dead); false where /proc cannot say. */
function exited(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state === 'Z' || state === 'X';
  } catch {
    return false;
  }
}

/** The arguments a process was started with (from /proc), or null where that cannot be read. */
export function processArgs(pid: number): string[] | null {
  try {
    return fs
      .readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      .split('\0')
      .filter((a) => a !== '');
  } catch {
    return null;
  }
}

/** Send `signal` to a child and wait up to `timeoutMs` for it to exit: true when it has. */
export function signalAndWait(child: ChildProcess, signal: NodeJS.Signals, timeoutMs: number): Promise<boolean> {
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

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
