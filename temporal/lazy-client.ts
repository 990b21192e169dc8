import type { Client } from '@temporalio/client';
import type { Config } from '../core/config';
import { logger } from '../core/logger';
import { connectClient } from './connection';

/** Waits between connection tries while Temporal is away: doubled after each failure, up to the cap. */
const FIRST_WAIT_MS = 500;
const MAX_WAIT_MS = 30_000;

/**
 * A client connected on first use, and again after a failed attempt. While Temporal is away a
 * caller does not wait on a new attempt each time: within the backoff window after a failure
 * `get()` rejects at once with that failure (the outbox keeps the work; the relay tries later).
 * The log says once that Temporal is away and once that it is back, never once per try.
 */
export function lazyClient(config: Config, connect: (c: Config) => Promise<Client> = connectClient) {
  let pending: Promise<Client> | undefined;
  let failure: { err: unknown; until: number; wait: number } | undefined;
  const get = (): Promise<Client> => {
    if (pending) return pending;
    if (failure && Date.now() < failure.until) return Promise.reject(failure.err);
    pending = connect(config).then(
      (client) => {
        if (failure) logger.info('Temporal answers again (API client)');
        failure = undefined;
        return client;
      },
      (err: unknown) => {
        pending = undefined;
        if (!failure) logger.warn({ err: String(err) }, 'Temporal does not answer (API client); workflow starts wait in the outbox');
        const wait = failure ? Math.min(failure.wait * 2, MAX_WAIT_MS) : FIRST_WAIT_MS;
        failure = { err, until: Date.now() + wait, wait };
        throw err;
      },
    );
    return pending;
  };
  return {
    get,
    async healthy(): Promise<boolean> {
      try {
        const client = await get();
        await client.connection.withDeadline(Date.now() + 2000, () => client.connection.workflowService.getSystemInfo({}));
        return true;
      } catch {
        return false;
      }
    },
    async close(): Promise<void> {
      if (pending) await (await pending.catch(() => undefined))?.connection.close();
    },
  };
}
