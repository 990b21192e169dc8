/**
 * `npm run dev` restarts a child (API, worker, inbound listener) that exits on its own, with
 * backoff and the reason printed. A child that keeps failing stops everything: after
 * RESTART_LIMIT exits in a row, each within STABLE_MS of its start (docs/operators.md "npm run dev").
 */
import type { Managed } from './managed';
import { say } from './output';

export const RESTART_LIMIT = 5;
/** A run this long counts as healthy: the next exit starts the count again. */
export const STABLE_MS = 60_000;
const FIRST_WAIT_MS = 1000;
const MAX_WAIT_MS = 30_000;

export interface SuperviseOptions {
  name: string;
  /** Starts the child (again). */
  start: () => Managed;
  /** Called with each new child (to record it). */
  started: (m: Managed) => void;
  /** True once the launcher stops: an exit then is expected. */
  stopping: () => boolean;
  /** The child kept failing. */
  giveUp: () => void;
  /** Backoff (tests shorten it). */
  firstWaitMs?: number;
}

const reasonOf = (m: Managed) =>
  m.child.signalCode ? `signal ${m.child.signalCode}` : `exit code ${m.child.exitCode ?? 'unknown (could not start)'}`;

export function supervise(opts: SuperviseOptions): void {
  let failures = 0;
  const run = () => {
    const startedAt = Date.now();
    const m = opts.start();
    opts.started(m);
    void m.exited.then(() => {
      if (opts.stopping()) return;
      failures = Date.now() - startedAt >= STABLE_MS ? 1 : failures + 1;
      if (failures >= RESTART_LIMIT) {
        say(`${opts.name} exited unexpectedly (${reasonOf(m)}), ${failures} times in a row: stopping everything`);
        opts.giveUp();
        return;
      }
      const wait = Math.min((opts.firstWaitMs ?? FIRST_WAIT_MS) * 2 ** (failures - 1), MAX_WAIT_MS);
      say(`${opts.name} exited unexpectedly (${reasonOf(m)}): restarting it in ${wait / 1000}s (${failures} of ${RESTART_LIMIT} tries)`);
      setTimeout(() => {
        if (!opts.stopping()) run();
      }, wait).unref();
    });
  };
  run();
}
