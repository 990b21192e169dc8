/**
 * A worker process (bin/worker.ts) stopped while it waits for Temporal ends promptly and cleanly:
 * a SIGTERM during the connection's backoff (Temporal refuses) and during a try in flight (Temporal
 * stalled: the try would only give up after its 10 s) ends the process with code 0, its metrics
 * listener open. Before, the first was killed by the signal's default action, and in the second the
 * SDK's runtime (which listens for SIGTERM while a connection is being made) swallowed the signal:
 * the worker kept waiting for Temporal.
 */
import type { ChildProcess } from 'node:child_process';
import { freePort } from '../../core/ports';
import { createTestDatabase, type TestDatabase } from '../helpers/db';
import { spawnEntry } from '../helpers/entry-process';
import { startStallProxy, type StallProxy } from '../helpers/stall-proxy';
import { retryUntil } from '../../core/retry';

/** "Promptly": well under the 10 s a deploy gives before SIGKILL, and under one try's 10 s. */
const PROMPT_MS = 5_000;

let tdb: TestDatabase;
let proxy: StallProxy | undefined;
const children: ChildProcess[] = [];

beforeAll(async () => {
  tdb = await createTestDatabase();
});

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await proxy?.close();
  await tdb?.drop();
});

async function startWorker(temporalAddress: string, readyLine: string) {
  const { child, ready } = spawnEntry('bin/worker.ts', {
    readyLine,
    env: {
      DATABASE_URL: tdb.url,
      TEMPORAL_ADDRESS: temporalAddress,
      METRICS_PORT: String(await freePort()),
      METRICS_HOST: '127.0.0.1',
    },
  });
  children.push(child);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, ready, exited };
}

/** SIGTERM, then the exit, or 'still running' once PROMPT_MS have passed. */
async function stop(w: Awaited<ReturnType<typeof startWorker>>) {
  const t0 = Date.now();
  w.child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'still running'>((resolve) => (timer = setTimeout(() => resolve('still running'), PROMPT_MS)));
  const outcome = await Promise.race([w.exited, late]).finally(() => clearTimeout(timer));
  return { outcome, ms: Date.now() - t0 };
}

it('a SIGTERM while Temporal refuses (between tries) ends the worker at once', async () => {
  const w = await startWorker(`127.0.0.1:${await freePort()}`, 'does not answer; retrying with backoff');
  await w.ready;
  const { outcome } = await stop(w);
  expect(outcome).toEqual({ code: 0, signal: null });
});

it('a SIGTERM while a try hangs on a stalled Temporal ends the worker without waiting out the try', async () => {
  proxy = await startStallProxy({ host: '127.0.0.1', port: await freePort() });
  proxy.stall();
  const w = await startWorker(proxy.address, 'waiting for Temporal');
  await w.ready;
  // The first try is in flight: the proxy accepted its connection and forwards nothing.
  while (proxy.accepted() === 0) await new Promise((resolve) => setTimeout(resolve, 20));
  const { outcome } = await stop(w);
  expect(outcome).toEqual({ code: 0, signal: null });
});

it('retryUntil: an abort ends a try in flight at once, and a value that comes later is discarded', async () => {
  const stopping = new AbortController();
  let answer: (v: string) => void = () => undefined;
  const discarded: string[] = [];
  const waiting = retryUntil('a stalled thing', () => new Promise<string>((resolve) => (answer = resolve)), {
    attemptMs: 600_000,
    signal: stopping.signal,
    discardLate: ((v: string) => discarded.push(v)) as (v: never) => unknown,
  });
  stopping.abort();
  await expect(waiting).rejects.toThrow('aborted');
  answer('late connection');
  await Promise.resolve();
  expect(discarded).toEqual(['late connection']);
});
