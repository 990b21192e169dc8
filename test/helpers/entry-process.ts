import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { TEST_DATA_DIR } from './config';

const ROOT = path.resolve(__dirname, '..', '..');

/**
 * A `bin/` entry point (`bin/worker.ts`, `bin/inbound.ts`…) in its own Node process, run with tsx
 * from the repository root in the test environment (NODE_ENV=test, info logs on stdout, the tests'
 * data directory) plus `env`. `ready` resolves at the first stdout line containing `readyLine`, and
 * rejects if the process exits before. `compiled`: its compiled JavaScript from `npm run build`
 * (dist/bin/worker.js…) with plain Node instead. A worker from the sources loads the workflow
 * bundle this jest run made from the current tree (FSS_TEST_WORKFLOW_BUNDLE, test/setup/global-setup.ts)
 * instead of bundling the workflows at its start; a compiled one loads its own, beside it in dist/.
 */
export function spawnEntry(
  entry: string,
  opts: { env: Record<string, string>; readyLine: string; compiled?: boolean },
): { child: ChildProcess; ready: Promise<void> } {
  const args = opts.compiled ? [path.join('dist', entry.replace(/\.ts$/, '.js'))] : ['--import', 'tsx', entry];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      DATA_DIR: path.resolve(ROOT, TEST_DATA_DIR),
      ...(opts.compiled ? {} : runBundle()),
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ready = new Promise<void>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.includes(opts.readyLine)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`${entry} exited during start-up (${code})`)));
  });
  return { child, ready };
}

/** WORKFLOW_BUNDLE_PATH for the bundle of this jest run, when there is one (else the worker bundles at start). */
export function runBundle(): { WORKFLOW_BUNDLE_PATH?: string } {
  const bundle = process.env.FSS_TEST_WORKFLOW_BUNDLE;
  return bundle ? { WORKFLOW_BUNDLE_PATH: bundle } : {};
}
