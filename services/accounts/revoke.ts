import type { Executor } from '../../db/knex';
import { evictCredential } from '../credentials/cache';

/**
 * Delete a user's sessions (all, or all but one) and return their ids. Evict them with
 * `evictAll` only after the transaction commits: evicting earlier lets a concurrent request
 * cache the still-visible row again for the cache's lifetime.
 */
export async function deleteUserSessions(
  trx: Executor,
  { userId, exceptSessionId }: { userId: string; exceptSessionId?: string },
): Promise<string[]> {
  const q = trx('sessions').where({ user_id: userId });
  if (exceptSessionId) q.whereNot({ id: exceptSessionId });
  const rows: Array<{ id: string }> = await q.delete().returning('id');
  return rows.map((r) => r.id);
}

/** Drop revoked credentials (session, API key ids) from this process's cache; other processes follow within 3 s. */
export function evictAll(ids: string[]): void {
  for (const id of ids) evictCredential(id);
}
