/**
 * core/processes pidAlive: a process that has exited is not alive, even while it waits as a zombie
 * for a parent that never collects it (an orphan whose PID 1 does not reap, as in this machine's
 * and CI's containers). The dev watchdog and the launcher's leftover check rely on it.
 */
import { spawn } from 'node:child_process';
import { pidAlive, sleep } from '../../core/processes';

/** A shell that starts `sleep` in the background and prints its pid; answers both pids. */
async function parentWithChild(): Promise<{ parent: ReturnType<typeof spawn>; child: number }> {
  const parent = spawn('bash', ['-c', 'sleep 600 & echo $!; wait'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const child = await new Promise<number>((resolve) => parent.stdout!.once('data', (b: Buffer) => resolve(Number(String(b).trim()))));
  return { parent, child };
}

async function until(check: () => boolean, ms: number): Promise<boolean> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; await sleep(50)) if (check()) return true;
  return check();
}

test('a running process is alive; an orphan that exited is not, reaped or not', async () => {
  const { parent, child } = await parentWithChild();
  expect([pidAlive(parent.pid), pidAlive(child)]).toEqual([true, true]);
  const parentGone = new Promise((resolve) => parent.once('exit', resolve));
  parent.kill('SIGKILL'); // the child is orphaned: its parent is now PID 1 (or a subreaper)
  await parentGone;
  expect(pidAlive(child)).toBe(true);
  process.kill(child, 'SIGTERM');
  expect(await until(() => !pidAlive(child), 10_000)).toBe(true);
});

test('pids that cannot name a process are not alive', () => {
  expect([undefined, 0, -1, 1.5].map((p) => pidAlive(p as number | undefined))).toEqual([false, false, false, false]);
});
