import fs from 'node:fs';
import path from 'node:path';
import { startBenchEnv, type BenchEnv } from './harness';

/**
 * `npm run bench [name…]`: runs bench/<name>.bench.ts files (all by default), each on a fresh
 * database, with the Temporal dev server and a real worker, printing figures and ratios to the
 * baseline measured in the same run.
 */
async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const files = fs
    .readdirSync(__dirname)
    .filter((f) => f.endsWith('.bench.ts'))
    .filter((f) => only.length === 0 || only.includes(f.replace('.bench.ts', '')))
    .sort((a, b) => (a === 'foundation.bench.ts' ? -1 : b === 'foundation.bench.ts' ? 1 : a.localeCompare(b)));
  let failed = 0;
  for (const file of files) {
    process.stdout.write(`\n== ${file}\n`);
    let env: BenchEnv | undefined;
    try {
      const mod = (await import(path.join(__dirname, file))) as {
        default: (env: BenchEnv) => Promise<void>;
        standalone?: boolean;
        /** Settings this bench's environment needs (a stand-in's URLs, started first). */
        benchEnv?: () => Promise<Record<string, string>>;
      };
      // A standalone bench (pure code, no database or service) runs with nothing else started, so
      // that no idle Temporal server or PostgreSQL shares the CPU while it measures.
      if (mod.standalone) await (mod.default as () => Promise<void>)();
      else {
        env = await startBenchEnv({ temporal: true, env: mod.benchEnv ? await mod.benchEnv() : undefined });
        await mod.default(env);
      }
    } catch (err) {
      failed++;
      process.stdout.write(`FAILED: ${(err as Error).stack ?? err}\n`);
    } finally {
      await env?.close();
    }
  }
  process.exit(failed ? 1 : 0);
}

void main();
