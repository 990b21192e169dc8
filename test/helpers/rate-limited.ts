import type { TestTeam } from './fixtures';
import { client } from './http';

/**
 * The app settings of a test that exercises the rate limits: limits on, every request counted in
 * the store at once, clients told apart by X-Forwarded-For (one trusted proxy hop), plus the
 * limits the test sets (`RATE_LIMIT_…` names of core/config.ts).
 */
export function rateLimitedEnv(limits: Record<string, string>): Record<string, string> {
  return { RATE_LIMIT_DISABLED: 'false', RATE_LIMIT_SYNC_MS: '0', TRUST_PROXY_HOPS: '1', ...limits };
}

/** A published form with one required email field (and whatever `extra` adds), through the API; answers its id. */
export async function publishedEmailForm(
  baseUrl: string,
  team: Pick<TestTeam, 'apiKey'>,
  slug: string,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const res = await client(baseUrl, team.apiKey).post('/api/v1/forms', {
    title: slug,
    slug,
    status: 'published',
    fields: [{ type: 'email', label: 'Email', name: 'email', required: true }],
    ...extra,
  });
  if (res.status !== 201) throw new Error(`form ${slug}: ${res.status} ${res.text}`);
  return res.body.data.id;
}
