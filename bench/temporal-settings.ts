import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { findTemporalCli } from '../temporal/binaries';
import { DEV_SERVER_SQLITE_ARGS } from '../temporal/dev-server';
import { emptyWorkflowRate } from './temporal-ceiling';

/**
 * `node --import tsx bench/temporal-settings.ts [rounds]`: the empty-workflow rate of the Temporal
 * dev server under candidate settings, in one run, each on a fresh server (1,000 workflows, 64 in
 * flight), in rotation so that the machine's noise spreads over all of them. Used to choose the
 * arguments `npm run dev` passes (docs/decisions.md "The Temporal dev server").
 */
const SETTINGS: Array<{ name: string; file: boolean; args: string[] }> = [
  { name: 'SQLite file, defaults (before)', file: true, args: [] },
  { name: 'SQLite file, WAL + synchronous=normal', file: true, args: [...DEV_SERVER_SQLITE_ARGS] },
  {
    name: 'WAL + normal + 1 task queue partition',
    file: true,
    args: [
      ...DEV_SERVER_SQLITE_ARGS,
      '--dynamic-config-value',
      'matching.numTaskqueueReadPartitions=1',
      '--dynamic-config-value',
      'matching.numTaskqueueWritePartitions=1',
    ],
  },
  {
    name: 'WAL + normal + temp_store=memory, cache 64 MB',
    file: true,
    args: [...DEV_SERVER_SQLITE_ARGS, '--sqlite-pragma', 'temp_store=memory', '--sqlite-pragma', 'cache_size=-65536'],
  },
  { name: 'in memory', file: false, args: [] },
];

async function main() {
  Runtime.install({
    logger: new DefaultLogger('WARN'),
    telemetryOptions: { logging: { filter: { core: 'ERROR', other: 'ERROR' }, forward: {} } },
  });
  const rounds = Number(process.argv[2] ?? 1);
  const only = process.env.SETTINGS_ONLY?.split(',').map(Number);
  for (let r = 0; r < rounds; r++) {
    for (const [i, s] of SETTINGS.entries()) {
      if (only && !only.includes(i)) continue;
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fss-settings-'));
      const env = await TestWorkflowEnvironment.createLocal({
        server: {
          executable: { type: 'existing-path', path: findTemporalCli() },
          ...(s.file ? { dbFilename: path.join(dir, 'temporal.sqlite') } : {}),
          extraArgs: ['--log-level', 'error', ...s.args],
        },
      });
      try {
        const rate = await emptyWorkflowRate(env, Number(process.env.SETTINGS_COUNT ?? 1000), 64);
        process.stdout.write(
          `round ${r + 1}  ${s.name.padEnd(48)} ${rate.rps.toFixed(1).padStart(6)} workflows/s  p50 ${rate.p50} ms  p99 ${rate.p99} ms\n`,
        );
      } finally {
        await env.teardown();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }
  }
}

void main();
