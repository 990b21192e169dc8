import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { NativeConnection, Worker } from '@temporalio/worker';
import { toTypedSearchAttributes, type SearchAttributeName } from '../temporal/search-attributes';
import { cpuPer, cpuSeconds, type CpuGroups } from './cpu';
import { BENCH_TEMPORAL_STORE, printResult, startDevServer, type BenchEnv } from './harness';

type Rate = { rps: number; p50: number; p99: number };

/**
 * The Temporal server's ceiling in this run: `count` empty workflows started and awaited with
 * `concurrency` in flight, on a worker of their own (separate task queue). A workflow per event
 * cannot go faster than this, so per-workflow features report their rate against it.
 */
export interface EmptyWorkflowVariant {
  workflowType?: 'emptyWorkflow' | 'emptyWorkflowWithUpsert';
  /** Started with these search attributes and memo (what an enrollment's start carries). */
  searchAttributes?: Partial<Record<SearchAttributeName, string>>;
  memo?: Record<string, unknown>;
}

export async function emptyWorkflowRate(
  env: BenchEnv | TestWorkflowEnvironment,
  count = 1000,
  concurrency = 8,
  variant: EmptyWorkflowVariant = {},
): Promise<Rate> {
  const server: TestWorkflowEnvironment | undefined = 'deps' in env ? (env as BenchEnv).temporal?.env : (env as TestWorkflowEnvironment);
  if (!server) throw new Error('needs Temporal');
  const taskQueue = `bench-ceiling-${Date.now()}`;
  const worker = await Worker.create({
    connection: server.nativeConnection as NativeConnection,
    taskQueue,
    workflowsPath: require.resolve('./workflows'),
  });
  const running = worker.run();
  try {
    const client = server.client;
    const latencies: number[] = [];
    let next = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < count) {
          const i = next++;
          const start = performance.now();
          await client.workflow.execute(variant.workflowType ?? 'emptyWorkflow', {
            taskQueue,
            workflowId: `${taskQueue}-${i}`,
            ...(variant.searchAttributes ? { typedSearchAttributes: toTypedSearchAttributes(variant.searchAttributes) } : {}),
            ...(variant.memo ? { memo: variant.memo } : {}),
          });
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

/**
 * The ceiling of the bench's own server (the SQLite settings `npm run dev` uses, unless
 * BENCH_TEMPORAL=memory), and beside it the same probe on a fresh in-memory dev server started for
 * it (the figure earlier benches reported). Prints both and their ratio; returns the bench server's.
 */
export async function ceilings(env: BenchEnv, count = 1000, concurrency = 64, cpu?: CpuGroups): Promise<Rate> {
  const before = cpu && cpuSeconds(cpu);
  const own = await emptyWorkflowRate(env, count, concurrency);
  printResult(
    `baseline: empty workflows, dev server (${BENCH_TEMPORAL_STORE === 'sqlite' ? 'SQLite, npm run dev settings' : 'in memory'})`,
    own,
  );
  if (cpu && before) process.stdout.write(`  CPU per empty workflow: ${cpuPer(before, cpuSeconds(cpu), count)}\n`);
  if (BENCH_TEMPORAL_STORE === 'sqlite') {
    const mem = await startDevServer('memory');
    try {
      const m = await emptyWorkflowRate(mem, count, concurrency);
      printResult('beside it: empty workflows, in-memory dev server', m);
      process.stdout.write(`  SQLite (WAL, synchronous=normal) / in memory: ${(own.rps / m.rps).toFixed(2)}\n`);
    } finally {
      await mem.teardown();
    }
  }
  return own;
}
