import { NativeConnection, Worker } from '@temporalio/worker';
import type { BenchEnv } from './harness';

/**
 * The Temporal server's ceiling in this run: `count` empty workflows started and awaited with
 * `concurrency` in flight, on a worker of their own (separate task queue). A workflow per event
 * cannot go faster than this, so per-workflow features report their rate against it.
 */
export async function emptyWorkflowRate(env: BenchEnv, count = 1000, concurrency = 8): Promise<{ rps: number; p50: number; p99: number }> {
  if (!env.temporal) throw new Error('needs Temporal');
  const taskQueue = `bench-ceiling-${Date.now()}`;
  const worker = await Worker.create({
    connection: env.temporal.env.nativeConnection as NativeConnection,
    taskQueue,
    workflowsPath: require.resolve('./workflows'),
  });
  const running = worker.run();
  try {
    const client = env.temporal.client;
    const latencies: number[] = [];
    let next = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < count) {
          const i = next++;
          const start = performance.now();
          await client.workflow.execute('emptyWorkflow', { taskQueue, workflowId: `${taskQueue}-${i}` });
          latencies.push(performance.now() - start);
        }
      }),
    );
    const ms = performance.now() - t0;
    latencies.sort((a, b) => a - b);
    const at = (p: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor((latencies.length * p) / 100))]);
    return { rps: (count / ms) * 1000, p50: at(50), p99: at(99) };
  } finally {
    worker.shutdown();
    await running;
  }
}
