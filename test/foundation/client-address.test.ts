import { parseConfig } from '../../core/config';
import { startTestApp, type TestApp } from '../helpers/app';
import { client } from '../helpers/http';
import { useApiWorld } from '../helpers/world';

/**
 * TRUST_PROXY_HOPS=N (README "Configuration", docs/decisions.md "Client address"): the client's
 * address is the Nth X-Forwarded-For value from the right; what a client writes to the left of
 * that changes nothing. Read back where the service records it: a session's `ip`.
 */
const apps: TestApp[] = [];

const w = useApiWorld({ app: false });
w.onTeardown(async () => {
  for (const a of apps) await a.close();
});

async function appWithHops(hops: number): Promise<TestApp> {
  const app = await startTestApp(w.tdb.db, { env: { TRUST_PROXY_HOPS: String(hops) } });
  apps.push(app);
  return app;
}

/** Sign in with the given X-Forwarded-For (or none) and answer the address the new session recorded. */
async function addressSeen(app: TestApp, xff?: string): Promise<string> {
  const headers: Record<string, string> = xff === undefined ? {} : { 'x-forwarded-for': xff };
  const login = await client(app.baseUrl).post('/api/auth/login', { email: w.team.email, password: w.team.password }, headers);
  expect(login.status).toBe(200);
  const sessions = await client(app.baseUrl, login.body.data.token).get('/api/v1/me/sessions');
  const current = sessions.body.data.find((s: { current: boolean }) => s.current);
  return current.ip as string;
}

const isLoopback = (ip: string) => /^(::ffff:)?127\.0\.0\.1$|^::1$/.test(ip);

test('N=0 (default): the socket address; the header is ignored', async () => {
  const app = await appWithHops(0);
  expect(isLoopback(await addressSeen(app, '203.0.113.9'))).toBe(true);
  expect(isLoopback(await addressSeen(app))).toBe(true);
});

test('N=1: the rightmost value; a forged leftmost value changes nothing; no header is the socket', async () => {
  const app = await appWithHops(1);
  expect(await addressSeen(app, '198.51.100.7')).toBe('198.51.100.7');
  expect(await addressSeen(app, '6.6.6.6, 198.51.100.7')).toBe('198.51.100.7');
  expect(await addressSeen(app, '7.7.7.7,8.8.8.8, 198.51.100.7')).toBe('198.51.100.7');
  expect(isLoopback(await addressSeen(app))).toBe(true);
});

test('N=2: the second value from the right (the first proxy saw the client; the second saw the first proxy)', async () => {
  const app = await appWithHops(2);
  expect(await addressSeen(app, '198.51.100.8, 10.0.0.5')).toBe('198.51.100.8');
  expect(await addressSeen(app, '6.6.6.6, 198.51.100.8, 10.0.0.5')).toBe('198.51.100.8');
});

test('the old TRUST_PROXY (which trusted the forgeable leftmost value) is refused, naming its replacement', () => {
  expect(() => parseConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY: replaced by TRUST_PROXY_HOPS/);
  expect(() => parseConfig({ TRUST_PROXY_HOPS: '-1' })).toThrow(/TRUST_PROXY_HOPS/);
});

test('a variable set to the empty string counts as unset: its default applies, not a format error', () => {
  // DATABASE_URL= in an env file means no value (embedded PostgreSQL), not a bad postgres:// URL.
  const config = parseConfig({ DATABASE_URL: '', TRUST_PROXY: '', PORT: '' });
  expect(config.DATABASE_URL).toBeUndefined();
  expect(config.PORT).toBe(3000);
  expect(() => parseConfig({ DATABASE_URL: ' ' })).toThrow(/DATABASE_URL: must be a postgres:\/\/ URL/);
});
