import { baseline, load, printResult, type BenchEnv } from './harness';

/**
 * GET /api/v1/me with an API key (auth, both rate-limit counters, one user read) against two bare
 * Koa handlers on the same pool, measured in the same run: one doing `select 1` (the baseline of
 * every benchmark) and one reading the same user row (so the ratio is the framework's own cost).
 */
export default async function run(env: BenchEnv): Promise<void> {
  const me = () => load({ url: `${env.baseUrl}/api/v1/me`, headers: { authorization: `Bearer ${env.team.apiKey}` } });
  const base = await baseline(env);
  printResult('baseline: bare Koa + select 1', base);
  const same = await baseline(env, 8, 'user');
  printResult('baseline: bare Koa reading the same user row', same);
  await me(); // warm-up
  const r = await me();
  printResult('GET /api/v1/me (API key, rate limited)', r, base);
  printResult('  … the same, against the same-work baseline', r, same);
  if (r.non2xx || r.errors) throw new Error('GET /api/v1/me returned errors under load');
}
