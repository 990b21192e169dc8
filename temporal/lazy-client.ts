import type { Client } from '@temporalio/client';
import type { Config } from '../core/config';
import { connectClient } from './connection';

/** A client connected on first use, and again after a failed attempt. */
export function lazyClient(config: Config): { get: () => Promise<Client>; healthy: () => Promise<boolean>; close: () => Promise<void> } {
  let pending: Promise<Client> | undefined;
  const get = () =>
    (pending ??= connectClient(config).catch((err) => {
      pending = undefined;
      throw err;
    }));
  return {
    get,
    async healthy() {
      try {
        const client = await get();
        await client.connection.withDeadline(Date.now() + 2000, () => client.connection.workflowService.getSystemInfo({}));
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      if (pending) await (await pending.catch(() => undefined))?.connection.close();
    },
  };
}
