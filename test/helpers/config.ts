import { parseConfig, type Config } from '../../core/config';

/** The data directory of the test app and the test workers: the at-rest key file lives there, so all of them seal alike. */
export const TEST_DATA_DIR = process.env.FSS_TEST_DATA_DIR ?? '.data/test-files';

/** A test config (loopback webhook receivers allowed) sharing the test app's data directory. */
export function testConfig(env: Record<string, string> = {}): Config {
  return parseConfig({ NODE_ENV: 'test', ALLOW_LOOPBACK_WEBHOOK_URLS: 'true', DATA_DIR: TEST_DATA_DIR, ...env });
}
