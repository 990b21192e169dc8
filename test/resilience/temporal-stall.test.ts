/**
 * Temporal stalled (frozen, partitioned, restarting in a deploy): a worker started meanwhile
 * waits and polls once the stall ends; the API stays ready (the outbox keeps the work) and says
 * that Temporal is down. The stall is a TCP proxy that stops forwarding, never a sleep.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker, type NativeConnection } from '@temporalio/worker';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestDatabase, type TestDatabase } from '../helpers/db';
import { http } from '../helpers/http';
import { startStallProxy, type StallProxy } from '../helpers/stall-proxy';
import { createTimeSkippingEnv, workflowBundle } from '../helpers/temporal';
import { testConfig } from '../helpers/config';
import { connectWorkerWhenReady } from '../../temporal/worker-connection';
import { lazyClient } from '../../temporal/lazy-client';

let env: TestWorkflowEnvironment;
let proxy: StallProxy;

beforeAll(async () => {
  env = await createTimeSkippingEnv();
  const [host, port] = env.address.split(':');
  proxy = await startStallProxy({ host, port: Number(port) });
});

afterAll(async () => {
  proxy?.resume();
  await proxy?.close();
  await env?.teardown();
});

/** Resolves when `condition` holds, checking at each turn of the event loop's timers. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('Temporal stalled', () => {
  it('a worker started during the stall keeps trying, and polls once the stall ends', async () => {
    proxy.stall();
    let settled = false;
    const connecting = connectWorkerWhenReady({ address: proxy.address }, { initialMs: 20, maxMs: 100, attemptMs: 300 }).finally(() => {
      settled = true;
    });
    const before = proxy.accepted();
    // Three tries seen by the proxy: the first timed out and was retried, and nothing gave up.
    await until(() => proxy.accepted() >= before + 3);
    expect(settled).toBe(false);
    proxy.resume();
    const connection: NativeConnection = await connecting;
    try {
      const worker = await Worker.create({
        connection,
        namespace: env.namespace ?? 'default',
        taskQueue: 'stall-test',
        workflowBundle: workflowBundle(),
        activities: { ping: async (token: string) => `pong:${token}` },
      });
      const result = await worker.runUntil(
        env.client.workflow.execute('pingWorkflow', {
          taskQueue: 'stall-test',
          workflowId: `stall-ping-${Date.now()}`,
          args: ['after-stall'],
        }),
      );
      expect(result).toBe('pong:after-stall');
    } finally {
      await connection.close();
    }
  });

  describe('the API', () => {
    let tdb: TestDatabase;
    let app: TestApp;
    let temporal: ReturnType<typeof lazyClient>;

    beforeAll(async () => {
      tdb = await createTestDatabase();
      temporal = lazyClient(testConfig({ TEMPORAL_ADDRESS: proxy.address }));
      app = await startTestApp(tdb.db, { temporalAccess: temporal });
    });
    afterAll(async () => {
      proxy.resume();
      await app?.close();
      await temporal?.close();
      await tdb?.drop();
    });

    it('stays ready while Temporal is away, shows it, and sees it back', async () => {
      proxy.stall();
      try {
        const started = performance.now();
        const ready = await http(app.baseUrl, 'get', '/readyz');
        expect(performance.now() - started).toBeLessThan(2000);
        expect(ready.status).toBe(200);
        expect(ready.body).toEqual({ status: 'ready', postgres: 'up', temporal: 'down' });
        // /healthz keeps its contract: 503 naming the part that is down.
        const health = await http(app.baseUrl, 'get', '/healthz');
        expect(health.status).toBe(503);
        expect(health.body).toEqual({ status: 'degraded', postgres: 'up', temporal: 'down' });
      } finally {
        proxy.resume();
      }
      // Back: the client's next try (after its backoff) connects, and readiness shows it.
      let ready = await http(app.baseUrl, 'get', '/readyz');
      while (ready.body.temporal !== 'up') {
        await new Promise((resolve) => setTimeout(resolve, 50));
        ready = await http(app.baseUrl, 'get', '/readyz');
      }
      expect(ready.body).toEqual({ status: 'ready', postgres: 'up', temporal: 'up' });
    });
  });
});
