import { Client as PgClient } from 'pg';
import { logger } from '../core/logger';
import { OUTBOX_CHANNEL, type OutboxStarter } from './outbox';

/** Rows a pass takes at most. */
const BATCH = 200;

export interface RelayLoopOptions {
  /** A dedicated connection LISTENs on OUTBOX_CHANNEL: a commit wakes the loop at once. */
  databaseUrl: string;
  /** Rows younger than this are left to the API's own start (0 when the worker starts everything). */
  minAgeMs: number;
  /** The longest sleep between passes when nothing wakes the loop. */
  idleMs: number;
  /** Called after each pass, before the loop sleeps: an observable point for tests (no periodic work goes here). */
  afterPass?: () => void;
}

/**
 * The worker's outbox relay: passes of `outbox.relay()` back to back while they find rows, then a
 * sleep until a NOTIFY (sent by the API after a commit) or `idleMs`. A lost LISTEN connection only
 * costs latency: the timed passes go on.
 */
export async function startRelayLoop(outbox: OutboxStarter, opts: RelayLoopOptions): Promise<{ stop(): Promise<void> }> {
  let stopping = false;
  let woken = false;
  let wake: (() => void) | null = null;
  const listener = new PgClient({ connectionString: opts.databaseUrl });
  listener.on('error', (err) => logger.warn({ err }, 'outbox LISTEN connection lost; relaying on a timer'));
  listener.on('notification', () => {
    woken = true;
    wake?.();
  });
  // Rows handled directly (a webhook's first attempt) fill a window; room in it wakes the loop.
  outbox.onDirectRoom = () => {
    woken = true;
    wake?.();
  };
  try {
    await listener.connect();
    await listener.query(`LISTEN ${OUTBOX_CHANNEL}`);
  } catch (err) {
    logger.warn({ err }, 'outbox LISTEN failed; relaying on a timer');
  }

  const loop = (async () => {
    while (!stopping) {
      woken = false;
      let started = 0;
      try {
        started = await outbox.relay(opts.minAgeMs, BATCH);
      } catch (err) {
        logger.warn({ err }, 'outbox relay pass failed');
      }
      if (stopping) break;
      opts.afterPass?.();
      // Another pass at once only when this one was full or a commit came meanwhile.
      if (started >= BATCH || woken) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, opts.idleMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = null;
    }
  })();

  let stopped: Promise<void> | undefined;
  return {
    stop() {
      stopped ??= (async () => {
        stopping = true;
        wake?.();
        await loop;
        await outbox.drainDirect(); // attempts under way finish (their leases need not expire)
        await listener.end().catch(() => undefined);
      })();
      return stopped;
    },
  };
}
