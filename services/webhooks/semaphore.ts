import type { Db } from '../../db/knex';

/**
 * A per-subscription counting semaphore in Postgres: at most `max` live leases per endpoint,
 * across every worker process. A lease expires on its own (a worker that died mid-request frees
 * its slot after `leaseMs`), and is released explicitly after each attempt. The take is one call
 * of `webhook_acquire_slot` (migration 007).
 */
export async function acquireSlot(
  db: Db,
  { subscriptionId, holder, max, leaseMs }: { subscriptionId: string; holder: string; max: number; leaseMs: number },
): Promise<boolean> {
  const r = await db.raw('select webhook_acquire_slot(?::uuid, ?, ?, ?) as ok', [subscriptionId, holder, max, leaseMs]);
  return r.rows[0].ok === true;
}

/** Give a slot back (after each attempt; also a lost worker's, by its holder key). */
export async function releaseSlot(db: Db, { subscriptionId, holder }: { subscriptionId: string; holder: string }): Promise<void> {
  await db('webhook_inflight').where({ subscription_id: subscriptionId, holder }).delete();
}

/** Free the slots of a lost relay attempt (every holder key under its prefix). */
export async function releaseLostSlots(
  db: Db,
  { subscriptionId, holderPrefix }: { subscriptionId: string; holderPrefix: string },
): Promise<void> {
  await db('webhook_inflight').where({ subscription_id: subscriptionId }).where('holder', 'like', `${holderPrefix}%`).delete();
}
