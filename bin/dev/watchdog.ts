/**
 * The watchdog of one `npm run dev` launcher: `node --import tsx bin/dev/watchdog.ts <launcher pid> <dev.json>`.
 *
 * The launcher starts it first, in its own process group (a Ctrl-C in the terminal does not reach
 * it). It checks its parent every 250 ms. When the launcher is gone (SIGKILL, an out-of-memory kill,
 * a lost terminal), it stops every child the launcher recorded in dev.json (API, worker, inbound
 * listener, Temporal and PostgreSQL, all at once; SIGKILL after 2 s) and exits; so no child outlives the launcher by more than a
 * few seconds. When the launcher stops normally it releases dev.json, and the watchdog exits.
 *
 * It writes to <DATA_DIR>/watchdog.log, not to the terminal, which may be gone.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pidAlive, sleep } from '../../core/processes';
import { readDevState, stopRecorded } from './state';

const POLL_MS = 250;
const GRACE_MS = 2000;

async function main(): Promise<void> {
  const launcher = Number(process.argv[2]);
  const stateFile = process.argv[3];
  if (!Number.isInteger(launcher) || launcher <= 0 || !stateFile) throw new Error('usage: watchdog.ts <launcher pid> <dev.json>');
  const logFile = path.join(path.dirname(stateFile), 'watchdog.log');
  const log = (msg: string) => fs.appendFileSync(logFile, `${new Date().toISOString()} [watchdog ${process.pid}] ${msg}\n`);
  // Interrupts meant for the terminal's foreground group are not for us; SIGTERM (from the launcher) ends us.
  process.on('SIGINT', () => undefined);
  process.on('SIGHUP', () => undefined);

  for (;;) {
    const state = readDevState(stateFile);
    if (!state && fs.existsSync(stateFile) && pidAlive(launcher)) {
      await sleep(POLL_MS); // unreadable for a moment (being written): look again
      continue;
    }
    if (!state || state.pid !== launcher) return; // released (a normal stop) or taken over by another launcher
    if (process.ppid !== launcher || !pidAlive(launcher)) {
      log(`launcher ${launcher} is gone: stopping its children`);
      await stopRecorded(state.children, { graceMs: GRACE_MS, log, why: `(launcher ${launcher} died)`, together: true });
      // The next launcher finds dev.json naming a dead launcher and nothing left to stop.
      log('done');
      return;
    }
    await sleep(POLL_MS);
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`[dev watchdog] ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
