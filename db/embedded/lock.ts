/** A lock file that serialises the processes starting one embedded cluster (stale after 60 s or when its owner is dead). */
import fs from 'node:fs';
import os from 'node:os';
import { pidAlive, sleep } from '../../core/processes';

const LOCK_STALE_MS = 60_000;
const LOCK_WAIT_MS = 120_000;

/** Take the lock (waiting for another holder); resolves to its release function. */
export async function acquireLock(lockFile: string, log: (line: string) => void): Promise<() => void> {
  const started = Date.now();
  let announced = false;
  for (;;) {
    try {
      const fd = fs.openSync(lockFile, 'wx');
      fs.writeSync(fd, JSON.stringify({ pid: process.pid, host: os.hostname(), at: new Date().toISOString() }));
      fs.closeSync(fd);
      return () => {
        try {
          fs.unlinkSync(lockFile);
        } catch {
          /* already gone */
        }
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    if (isStaleLock(lockFile)) {
      // Move it aside before deleting, so that two waiters that both judged it
      // stale cannot delete a lock a third process has just taken.
      const aside = `${lockFile}.stale-${process.pid}-${Date.now()}`;
      try {
        fs.renameSync(lockFile, aside);
        if (isStaleLock(aside)) {
          fs.unlinkSync(aside);
          log(`removed stale lock ${lockFile}`);
        } else {
          try {
            fs.linkSync(aside, lockFile); // not stale after all: put it back
          } catch {
            /* someone took the lock meanwhile */
          }
          fs.unlinkSync(aside);
        }
      } catch {
        /* raced with another waiter */
      }
      continue;
    }
    if (Date.now() - started > LOCK_WAIT_MS) {
      throw new Error(
        `timed out after ${LOCK_WAIT_MS / 1000}s waiting for ${lockFile} (delete it if no other process is starting this database)`,
      );
    }
    if (!announced) {
      log(`waiting for another process to finish starting the database (${lockFile})`);
      announced = true;
    }
    await sleep(100 + Math.floor(Math.random() * 100));
  }
}

function isStaleLock(file: string): boolean {
  try {
    const st = fs.statSync(file);
    if (Date.now() - st.mtimeMs > LOCK_STALE_MS) return true;
    const info = JSON.parse(fs.readFileSync(file, 'utf8')) as { pid?: number; host?: string };
    return info.host === os.hostname() && typeof info.pid === 'number' && !pidAlive(info.pid);
  } catch {
    // Gone (not stale: just retry) or half-written (treat as live until 60 s old).
    return false;
  }
}
