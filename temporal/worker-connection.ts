import { NativeConnection, type NativeConnectionOptions } from '@temporalio/worker';
import { retryUntil, type RetryOptions } from '../core/retry';

/**
 * The worker's connection to Temporal, once Temporal answers: a Temporal that is away or stalled
 * when the worker starts (a deploy restarting it, a partition) is waited for with backoff, never
 * a crash. A try counts when the connection is made and the server answers getSystemInfo.
 */
export function connectWorkerWhenReady(options: NativeConnectionOptions, retry: RetryOptions = {}): Promise<NativeConnection> {
  return retryUntil(
    'Temporal',
    async () => {
      const connection = await NativeConnection.connect(options);
      try {
        await connection.workflowService.getSystemInfo({});
        return connection;
      } catch (err) {
        await connection.close().catch(() => undefined);
        throw err;
      }
    },
    { ...retry, discardLate: ((c: NativeConnection) => c.close().catch(() => undefined)) as (v: never) => unknown },
  );
}
