import { logger } from './logger';

export interface RetryOptions {
  /** First wait after a failed try; doubled after each, up to `maxMs`. */
  initialMs?: number;
  maxMs?: number;
  /** Each try is given this long, then counts as failed (a stalled dependency never answers). */
  attemptMs?: number;
  /** Stop trying, also in the middle of a try: the promise rejects at once. */
  signal?: AbortSignal;
  /** Called with a value that arrived after its try had timed out (a connection to close). */
  discardLate?: (value: never) => unknown;
}

/** The dependency's state as the log last told it: a line is written when it changes, not at every try. */
type State = 'unknown' | 'down';

/**
 * Tries `attempt` until it resolves, waiting with exponential backoff (full jitter) between tries.
 * Logs once when `what` is first found away, and once when it answers again, never once per try.
 */
export async function retryUntil<T>(what: string, attempt: () => Promise<T>, opts: RetryOptions = {}): Promise<T> {
  const { initialMs = 500, maxMs = 30_000, attemptMs = 10_000, signal } = opts;
  let state: State = 'unknown';
  let tries = 0;
  let wait = initialMs;
  for (;;) {
    tries++;
    try {
      const value = await withTimeout(attempt(), attemptMs, opts.discardLate as ((v: T) => unknown) | undefined, signal);
      if (state === 'down') logger.info({ what, tries }, `${what} answers again`);
      return value;
    } catch (err) {
      if (signal?.aborted) throw err;
      if (state !== 'down') logger.warn({ what, err: String(err) }, `${what} does not answer; retrying with backoff until it does`);
      else logger.debug({ what, tries, err: String(err) }, `${what} still does not answer`);
      state = 'down';
    }
    await delay(Math.random() * wait, signal);
    wait = Math.min(wait * 2, maxMs);
  }
}

/**
 * `promise`, or a rejection after `ms` or when `signal` aborts, whichever comes first; a value
 * arriving after that goes to `late` (to be closed).
 */
export function withTimeout<T>(promise: Promise<T>, ms: number, late?: (value: T) => unknown, signal?: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const settle = () => {
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    const giveUp = (why: string) => {
      if (settled) return;
      settle();
      reject(new Error(why));
    };
    const onAbort = () => giveUp('aborted');
    const timer = setTimeout(() => giveUp(`no answer within ${ms} ms`), ms);
    if (signal?.aborted) giveUp('aborted');
    else signal?.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        if (settled) {
          void late?.(value); // it came after the give-up: to be closed
          return;
        }
        settle();
        resolve(value);
      },
      (err: unknown) => {
        if (settled) return; // a late failure: already counted as given up
        settle();
        reject(err);
      },
    );
  });
}

function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Error('aborted'));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new Error('aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
