import type { ServiceDeps } from '../deps';
import { IDEMPOTENCY_TTL_MS } from './store';

/**
 * Delete the idempotency rows older than 24 hours (run every 15 minutes by the
 * `idempotency-expiry` maintenance Schedule, services/maintenance/tasks.ts). `now` for tests.
 */
export async function expireIdempotencyKeys(deps: Pick<ServiceDeps, 'db'>, input: { now?: Date } = {}): Promise<{ deleted: number }> {
  const { db } = deps;
  const cutoff = new Date((input.now ?? new Date()).getTime() - IDEMPOTENCY_TTL_MS);
  const deleted = await db('idempotency_keys').where('created_at', '<', cutoff).delete();
  return { deleted };
}
