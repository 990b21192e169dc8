import type { Knex } from 'knex';

/**
 * The per-endpoint slot take as one statement (one round trip instead of a five-statement
 * transaction): serialised per subscription by a transaction-scoped advisory lock, expired leases
 * dropped, then a new lease if fewer than `max` are live. True when `holder` holds a slot.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE FUNCTION webhook_acquire_slot(sub uuid, who text, max_in_flight int, lease_ms int) RETURNS boolean
    LANGUAGE plpgsql AS $$
    DECLARE
      live int;
      mine boolean;
    BEGIN
      PERFORM pg_advisory_xact_lock(hashtextextended(sub::text, 4004));
      DELETE FROM webhook_inflight WHERE subscription_id = sub AND lease_expires_at < now();
      SELECT count(*)::int, coalesce(bool_or(holder = who), false) INTO live, mine FROM webhook_inflight WHERE subscription_id = sub;
      IF mine THEN RETURN true; END IF;
      IF live >= max_in_flight THEN RETURN false; END IF;
      INSERT INTO webhook_inflight (subscription_id, holder, lease_expires_at) VALUES (sub, who, now() + lease_ms * interval '1 millisecond');
      RETURN true;
    END $$`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP FUNCTION IF EXISTS webhook_acquire_slot(uuid, text, int, int)');
}
