import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { freePort, portAccepts } from '../../core/ports';
import { sleep } from '../../core/processes';

/**
 * A real redis-server for the tests that need one: TEST_REDIS_URL when set (a server you run),
 * else `redis-server` (REDIS_SERVER_PATH, PATH, /usr/bin) started on a free port for the suite.
 * Without either, those suites are reported as skipped with the reason printed once; REQUIRE_REDIS=1
 * (set by .ci/run, which installs Debian's redis-server) makes that an error instead.
 */
function findRedisServer(): string | null {
  const dirs = (process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
  const candidates = process.env.REDIS_SERVER_PATH
    ? [process.env.REDIS_SERVER_PATH]
    : [...dirs.map((d) => path.join(d, 'redis-server')), '/usr/bin/redis-server', '/usr/sbin/redis-server'];
  for (const p of candidates) {
    try {
      fs.accessSync(p, fs.constants.X_OK);
      return p;
    } catch {
      /* next */
    }
  }
  return null;
}

const external = process.env.TEST_REDIS_URL;
const binary = external ? null : findRedisServer();

const available = Boolean(external || binary);
if (!available) {
  const reason = 'redis-server is not installed (apt-get install redis-server, or set TEST_REDIS_URL): the Redis tests are SKIPPED';
  if (process.env.REQUIRE_REDIS === '1') throw new Error(`REQUIRE_REDIS=1: ${reason}`);
  console.warn(`*** ${reason} ***`);
}

/** `describe` when a Redis is available, else `describe.skip` (chosen once, when the file loads; as describeWithBrowser). */
export const describeWithRedis: jest.Describe = available ? describe : describe.skip;

export interface TestRedis {
  url: string;
  stop(): Promise<void>;
}

/** TEST_REDIS_URL, or a fresh redis-server on 127.0.0.1 (no persistence) that stop() ends. */
export async function startRedis(): Promise<TestRedis> {
  if (external) return { url: external, stop: async () => undefined };
  if (!binary) throw new Error('redis-server is not installed');
  const port = await freePort();
  const child: ChildProcess = spawn(
    binary,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let failure: string | null = null;
  child.once('error', (e) => (failure = e.message));
  child.once('exit', (code) => (failure ??= `redis-server exited with ${code}`));
  const deadline = Date.now() + 10_000;
  while (!(await portAccepts(port))) {
    if (failure) throw new Error(`could not start ${binary}: ${failure}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${binary} did not listen on 127.0.0.1:${port} within 10 s`);
    }
    await sleep(50);
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
