import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The classifier as production runs it, for bench/mail.bench.ts: core/mail-facts.ts and
 * domain/mail-classify.ts (and what they import) compiled by tsc with the production build's
 * options (tsconfig.build.json) into .cache/mail-bench/ of the repository, so that the compiled
 * files find node_modules as dist/ does. tsx (which runs the sources under `npm run dev`, the tests
 * and the benches) compiles imports into getters and wraps each function made at run time in a
 * naming helper; production (`npm run build`) does neither. Returns the folder.
 */
const ROOT = path.resolve(__dirname, '..');
export const ENTRIES = ['core/mail-facts.ts', 'domain/mail-classify.ts'];

export function buildMailCode(): string {
  const out = path.join(ROOT, '.cache', 'mail-bench');
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
  const config = path.join(out, 'tsconfig.json');
  fs.writeFileSync(
    config,
    JSON.stringify({
      extends: path.join(ROOT, 'tsconfig.build.json'),
      compilerOptions: { outDir: out, rootDir: ROOT, sourceMap: false },
      files: [...ENTRIES, 'core/types/mailparser.d.ts'].map((f) => path.join(ROOT, f)),
    }),
  );
  const tsc = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', config], { encoding: 'utf8' });
  if (tsc.status !== 0) throw new Error(`tsc for the mail bench failed (exit ${tsc.status}): ${tsc.stdout}${tsc.stderr}`);
  return out;
}
