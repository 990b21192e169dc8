#!/usr/bin/env node
'use strict';
/*
 * Fuzz the API against its own OpenAPI document with Schemathesis (not part of `npm test`).
 *
 *   node scripts/schemathesis.js [--url BASE_URL] [--api-key KEY] [-- <more `st run` options>]
 *
 * 1. Schemathesis (`st`, a Python tool) is installed once into a virtualenv in the cache folder
 *    ${XDG_CACHE_HOME:-~/.cache}/fss-tools/schemathesis-venv (outside the repository, like the
 *    Temporal binaries of scripts/bootstrap.js).
 * 2. Without --url, a fresh development stack is started for the run (`bin/dev.ts` with its own
 *    data folder .data/schemathesis, a free port and rate limits off, so that the fuzzer is not
 *    cut off by 429s) and stopped at the end. Its demo API key (all scopes) authenticates the
 *    requests; the dashboard-only routes then answer 403, which is all they are checked for.
 *    With --url, the API at that address is used, with --api-key (or FSS_API_KEY) if given.
 * 3. `st run <base>/api/v1/openapi.json --checks not_a_server_error,response_schema_conformance`:
 *    no answer may be a 5xx, and every answer must match the schema the document declares for its
 *    status. Options after `--` are passed on (e.g. `-- --max-examples 20 --seed 1`).
 * The exit code is st's: 0 when every check passed.
 *
 * Plain Node, no dependencies. Progress goes to stderr; st's report to stdout.
 */
const fs = require('fs');
const os = require('os');
const path = require('path');
const net = require('net');
const { spawn, spawnSync } = require('child_process');

const ROOT = path.resolve(__dirname, '..');
const SCHEMATHESIS = 'schemathesis>=4,<5';
const CHECKS = 'not_a_server_error,response_schema_conformance';
const READY_MS = 240_000;

const say = (msg) => process.stderr.write(`[schemathesis] ${msg}\n`);
function fail(msg) {
  say(`ERROR: ${msg}`);
  process.exit(2);
}

function parseArgs(argv) {
  const opts = { url: process.env.FSS_URL || null, apiKey: process.env.FSS_API_KEY || null, extra: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      opts.extra = argv.slice(i + 1);
      break;
    } else if (a === '--url') opts.url = argv[++i];
    else if (a === '--api-key') opts.apiKey = argv[++i];
    else if (a === '-h' || a === '--help') {
      process.stdout.write('usage: node scripts/schemathesis.js [--url BASE_URL] [--api-key KEY] [-- <st run options>]\n');
      process.exit(0);
    } else fail(`unknown option ${a} (see --help)`);
  }
  if (opts.url) opts.url = opts.url.replace(/\/$/, '');
  return opts;
}

// ------------------------------------------------------------------ the tool
function venvDir() {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'fss-tools', 'schemathesis-venv');
}

function ensureSchemathesis() {
  const venv = venvDir();
  const st = path.join(venv, 'bin', 'st');
  if (fs.existsSync(st)) return st;
  say(`installing Schemathesis into ${venv} (once) ...`);
  const run = (cmd, args) => {
    const r = spawnSync(cmd, args, { stdio: ['ignore', 2, 'inherit'] });
    if (r.error || r.status !== 0) {
      fail(
        `${cmd} ${args.join(' ')} failed (${r.error ? r.error.message : `exit code ${r.status}`}). Install it by hand:\n` +
          `    python3 -m venv ${venv} && ${venv}/bin/pip install '${SCHEMATHESIS}'`,
      );
    }
  };
  fs.mkdirSync(path.dirname(venv), { recursive: true });
  run('python3', ['-m', 'venv', venv]);
  run(path.join(venv, 'bin', 'python'), ['-m', 'pip', 'install', '--disable-pip-version-check', '--no-input', SCHEMATHESIS]);
  if (!fs.existsSync(st)) fail(`pip finished but ${st} is missing`);
  return st;
}

// ------------------------------------------------------- a stack of our own
function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function healthy(base) {
  try {
    const res = await fetch(`${base}/healthz`);
    return res.status === 200;
  } catch {
    return false;
  }
}

async function startStack() {
  const dataDir = path.join(ROOT, '.data', 'schemathesis');
  fs.mkdirSync(dataDir, { recursive: true });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const logFile = path.join(dataDir, 'dev.log');
  const log = fs.openSync(logFile, 'w');
  say(`starting a development stack on ${base} (data: ${dataDir}, log: ${logFile}) ...`);
  const child = spawn(process.execPath, ['--import', 'tsx', 'bin/dev.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      BASE_URL: base,
      RATE_LIMIT_DISABLED: 'true',
      LOG_LEVEL: 'warn',
      NO_COLOR: '1',
    },
    stdio: ['ignore', log, log],
  });
  fs.closeSync(log);
  let exited = false;
  child.once('exit', () => (exited = true));
  child.once('error', (e) => fail(`could not start bin/dev.ts: ${e.message}`));
  const stop = async () => {
    if (exited) return;
    say('stopping the development stack ...');
    child.kill('SIGINT');
    for (let i = 0; i < 300 && !exited; i++) await sleep(100);
    if (!exited) child.kill('SIGKILL');
  };
  const deadline = Date.now() + READY_MS;
  while (!(await healthy(base))) {
    if (exited) fail(`the development stack exited during start-up; see ${logFile}`);
    if (Date.now() > deadline) {
      await stop();
      fail(`the development stack did not become healthy within ${READY_MS / 1000}s; see ${logFile}`);
    }
    await sleep(500);
  }
  const demo = JSON.parse(fs.readFileSync(path.join(dataDir, 'demo.json'), 'utf8'));
  return { base, apiKey: demo.api_key, stop };
}

// ---------------------------------------------------------------------- main
async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const st = ensureSchemathesis();
  if (!opts.url) spawnSync(process.execPath, [path.join(__dirname, 'bootstrap.js'), '--quiet'], { stdio: ['ignore', 2, 'inherit'] });
  const stack = opts.url ? { base: opts.url, apiKey: opts.apiKey, stop: async () => undefined } : await startStack();
  const args = ['run', `${stack.base}/api/v1/openapi.json`, '--checks', CHECKS, '--url', stack.base];
  if (stack.apiKey) args.push('--header', `Authorization: Bearer ${stack.apiKey}`);
  args.push(...opts.extra);
  say(`st ${args.map((a) => (a.startsWith('Authorization:') ? 'Authorization: Bearer ****' : a)).join(' ')}`);
  const code = await new Promise((resolve) => {
    const child = spawn(st, args, { stdio: 'inherit' });
    child.once('error', (e) => {
      say(`could not run ${st}: ${e.message}`);
      resolve(2);
    });
    child.once('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0)));
  });
  await stack.stop();
  process.exit(code);
}

let stopping = false;
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    if (stopping) process.exit(130);
    stopping = true; // the children get the terminal's signal too; main() stops the stack when st exits
  });
}

main().catch((e) => fail(e.stack || String(e)));
