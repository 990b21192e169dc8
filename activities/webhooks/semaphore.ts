import type { Db } from '../../db/knex';

/**
 * A per-subscription counting semaphore in Postgres: at most `max` live leases per endpoint,
 * across every worker process. A lease expires on its own (a worker that died mid-request frees
 * its slot after `leaseMs`), and is released explicitly after each attempt.
 */
export async function acquireSlot(db: Db, subscriptionId: string, holder: string, max: number, leaseMs: number): Promise<boolean> {
  return db.transaction(async (trx) => {
    await trx.raw('select pg_advisory_xact_lock(hashtextextended(?, 4004))', [subscriptionId]);
    const live = await trx.raw(
      `with expired as (delete from webhook_inflight where subscription_id = ? and lease_expires_at < now())
       select count(*)::int as n, bool_or(holder = ?) as mine from webhook_inflight where subscription_id = ? and lease_expires_at >= now()`,
      [subscriptionId, holder, subscriptionId],
    );
    const { n, mine } = live.rows[0] as { n: number; mine: boolean | null };
    if (mine) return true;
    if (n >= max) return false;
    await trx('webhook_inflight').insert({
      subscription_id: subscriptionId,
      holder,
      lease_expires_at: trx.raw(`now() + (? * interval '1 millisecond')`, [leaseMs]),
    });
    return true;
  });
}

export async function releaseSlot(db: Db, subscriptionId: string, holder: string): Promise<void> {
  await db('webhook_inflight').where({ subscription_id: subscriptionId, holder }).delete();
}
