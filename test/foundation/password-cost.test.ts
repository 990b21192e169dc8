/**
 * The password hash cost is a setting (core/config.ts PASSWORD_HASH_MEMORY_KIB, PASSWORD_HASH_PASSES):
 * below OWASP's floor (19456 KiB, 2 passes) only NODE_ENV=test may start; the test config hashes
 * with 1 MiB and 1 pass; a stored hash names its own cost, so it verifies whatever the settings are.
 */
import { ConfigError, parseConfig } from '../../core/config';
import { dummyHash, hashPassword, verifyPassword } from '../../core/passwords';
import { testConfig } from '../helpers/config';

const production = {
  NODE_ENV: 'production',
  SMTP_URL: 'smtp://mail.example.com:587',
  BASE_URL: 'https://forms.example.com',
} as const;

describe('the setting', () => {
  it('defaults to 64 MiB and 3 passes', () => {
    const c = parseConfig(production);
    expect({ memory: c.PASSWORD_HASH_MEMORY_KIB, passes: c.PASSWORD_HASH_PASSES }).toEqual({ memory: 65536, passes: 3 });
  });

  it.each(['production', 'development'])('is refused below the floor with NODE_ENV=%s, naming the variable', (nodeEnv) => {
    const env = { ...production, NODE_ENV: nodeEnv };
    expect(() => parseConfig({ ...env, PASSWORD_HASH_MEMORY_KIB: '19455' })).toThrow(ConfigError);
    expect(() => parseConfig({ ...env, PASSWORD_HASH_MEMORY_KIB: '19455' })).toThrow(/PASSWORD_HASH_MEMORY_KIB: 19455 is below/);
    expect(() => parseConfig({ ...env, PASSWORD_HASH_PASSES: '1' })).toThrow(/PASSWORD_HASH_PASSES: 1 is below/);
    // The floor itself is accepted.
    expect(parseConfig({ ...env, PASSWORD_HASH_MEMORY_KIB: '19456', PASSWORD_HASH_PASSES: '2' }).PASSWORD_HASH_MEMORY_KIB).toBe(19456);
  });

  it('is accepted below the floor with NODE_ENV=test, and not below argon2-sensible bounds', () => {
    const c = parseConfig({ NODE_ENV: 'test', PASSWORD_HASH_MEMORY_KIB: '1024', PASSWORD_HASH_PASSES: '1' });
    expect({ memory: c.PASSWORD_HASH_MEMORY_KIB, passes: c.PASSWORD_HASH_PASSES }).toEqual({ memory: 1024, passes: 1 });
    expect(() => parseConfig({ NODE_ENV: 'test', PASSWORD_HASH_MEMORY_KIB: '512' })).toThrow(/PASSWORD_HASH_MEMORY_KIB/);
    expect(() => parseConfig({ NODE_ENV: 'test', PASSWORD_HASH_PASSES: '0' })).toThrow(/PASSWORD_HASH_PASSES/);
  });
});

describe('hashes', () => {
  it('made with the test settings carry m=1024,t=1 and verify', async () => {
    const hash = await hashPassword(testConfig(), 'correct horse battery');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,p=\d+\$/);
    expect(await verifyPassword(hash, 'correct horse battery')).toBe(true);
    expect(await verifyPassword(hash, 'wrong horse battery')).toBe(false);
  });

  it('made at another cost keep verifying: the hash names its own parameters', async () => {
    const floor = await hashPassword({ PASSWORD_HASH_MEMORY_KIB: 19456, PASSWORD_HASH_PASSES: 2 }, 'an older password');
    expect(floor).toMatch(/\$m=19456,t=2,/);
    expect(await verifyPassword(floor, 'an older password')).toBe(true);
  });

  it("an unknown address's sign-in verifies a hash of the configured cost (same work as a known one)", async () => {
    const cheap = testConfig();
    expect(await dummyHash(cheap)).toMatch(/\$m=1024,t=1,/);
    expect(await dummyHash(cheap)).toBe(await dummyHash(cheap));
    expect(await dummyHash({ PASSWORD_HASH_MEMORY_KIB: 19456, PASSWORD_HASH_PASSES: 2 })).toMatch(/\$m=19456,t=2,/);
  });
});
