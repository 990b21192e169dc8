#!/usr/bin/env node
'use strict';
/*
 * The production build: `npm run build` (docs/decisions.md, "Production build").
 *
 *   node scripts/build.js [--out DIR]        (default dist/)
 *
 * 1. tsc -p tsconfig.build.json: the entry points (bin/api, bin/worker, bin/inbound, bin/cli) and
 *    everything they import, as CommonJS JavaScript under DIR, with the source tree's layout.
 * 2. The files served as they are (api/pages/**\/*.client.js) copied beside their compiled modules.
 * 3. The workflow bundle (bundleWorkflowCode on the compiled workflows) in DIR/workflow-bundle.js,
 *    which the compiled worker loads (temporal/workflow-code.ts).
 * 4. DIR/build-info.json: when, from which sources, with which Node.
 * Messages go to stderr. Plain Node: it runs from the repository with its dev dependencies.
 */
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');

const ROOT = path.resolve(__dirname, '..');
const outArg = process.argv.indexOf('--out');
const OUT = path.resolve(ROOT, outArg > 0 ? process.argv[outArg + 1] : 'dist');
const BUNDLE_FILE = 'workflow-bundle.js'; // keep in sync with temporal/workflow-code.ts

function step(msg) {
  process.stderr.write(`[build] ${msg}\n`);
}

/** Every `*.client.js` under `dir` (relative to ROOT). */
function clientAssets(dir) {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return clientAssets(rel);
    return e.name.endsWith('.client.js') ? [rel] : [];
  });
}

async function main() {
  const started = Date.now();
  fs.rmSync(OUT, { recursive: true, force: true });
  step(`tsc -p tsconfig.build.json --outDir ${path.relative(ROOT, OUT)}`);
  const tsc = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--outDir', OUT], {
    cwd: ROOT,
    stdio: ['ignore', 2, 'inherit'],
  });
  if (tsc.status !== 0) throw new Error(`tsc failed (exit ${tsc.status})`);

  for (const asset of clientAssets('api')) {
    fs.copyFileSync(path.join(ROOT, asset), path.join(OUT, asset));
  }

  step('bundleWorkflowCode');
  const { bundleWorkflowCode } = require('@temporalio/worker');
  const quiet = () => undefined;
  const warn = (m) => process.stderr.write(`[build] ${m}\n`);
  const logger = { trace: quiet, debug: quiet, info: quiet, log: quiet, warn, error: warn };
  const bundle = await bundleWorkflowCode({ workflowsPath: path.join(OUT, 'workflows', 'index.js'), logger });
  fs.writeFileSync(path.join(OUT, BUNDLE_FILE), bundle.code);

  const git = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' });
  const info = { builtAt: new Date().toISOString(), commit: git.status === 0 ? git.stdout.trim() : null, node: process.version };
  fs.writeFileSync(path.join(OUT, 'build-info.json'), JSON.stringify(info, null, 2) + '\n');
  step(`done in ${((Date.now() - started) / 1000).toFixed(1)} s: ${path.relative(ROOT, OUT) || '.'}/`);
}

main().catch((err) => {
  process.stderr.write(`[build] ERROR: ${err.message}\n`);
  process.exit(1);
});
