import type { Db } from '../../db/knex';

/**
 * A per-subscription counting semaphore in Postgres: at most `max` live leases per endpoint,
 * across every worker process. A lease expires on its own (a worker that died mid-request frees
 * its slot after `leaseMs`), and is released explicitly after each attempt. The take is one call
 * of `webhook_acquire_slot` (migration 007).
 */
export async function acquireSlot(db: Db, subscriptionId: string, holder: string, max: number, leaseMs: number): Promise<boolean> {
  const r = await db.raw('select webhook_acquire_slot(?::uuid, ?, ?, ?) as ok', [subscriptionId, holder, max, leaseMs]);
  return r.rows[0].ok === true;
}

export async function releaseSlot(db: Db, subscriptionId: string, holder: string): Promise<void> {
  await db('webhook_inflight').where({ subscription_id: subscriptionId, holder }).delete();
}
