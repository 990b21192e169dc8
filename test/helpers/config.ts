import { parseConfig, type Config } from '../../core/config';

/** The data directory of the test app and the test workers: the at-rest key file lives there, so all of them seal alike. */
export const TEST_DATA_DIR = process.env.FSS_TEST_DATA_DIR ?? '.data/test-files';

/**
 * The tests' password hash cost: argon2id with 1 MiB and 1 pass (below the production floor, which
 * NODE_ENV=test allows). At the default 64 MiB × 3 passes every test team's owner took a real hash.
 */
export const TEST_PASSWORD_HASH = { PASSWORD_HASH_MEMORY_KIB: '1024', PASSWORD_HASH_PASSES: '1' } as const;

/** A test config (loopback webhook receivers allowed, the cheap password hash) sharing the test app's data directory. */
export function testConfig(env: Record<string, string> = {}): Config {
  return parseConfig({ NODE_ENV: 'test', ALLOW_LOOPBACK_WEBHOOK_URLS: 'true', DATA_DIR: TEST_DATA_DIR, ...TEST_PASSWORD_HASH, ...env });
}
