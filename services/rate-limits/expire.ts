import type { ServiceDeps } from '../deps';

/** How long after its window ended a rate-limit counter is kept (it is useless once the window is over). */
export const RATE_LIMIT_GRACE_MS = 3_600_000;

/**
 * Delete rate-limit counters (rate-limiter-flexible's `rate_limits` rows, `expire` in epoch ms)
 * whose window ended over an hour ago. Counters without an expiry are kept. Run every minute by
 * the `rate-limit-expiry` maintenance Schedule (services/maintenance/tasks.ts).
 */
export async function expireRateLimits(deps: Pick<ServiceDeps, 'db'>, input: { nowMs?: number }): Promise<{ deleted: number }> {
  const { db } = deps;
  const cutoff = (input.nowMs ?? Date.now()) - RATE_LIMIT_GRACE_MS;
  const deleted = await db('rate_limits').where('expire', '<', cutoff).delete();
  return { deleted };
}
