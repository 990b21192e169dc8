import type { Knex } from 'knex';

/**
 * Outbox rows the worker's relay handles itself before (or instead of) a workflow start: a
 * webhook delivery's first attempt is made straight from its row (docs/webhooks.md "First
 * attempt"). The relay leases the row (`lease_until`, `leases` counts the leases: a fencing
 * number and part of the attempt key); a worker lost mid-attempt leaves the lease to expire, and
 * the next lease repeats the attempt. `relayed_at` marks a row whose direct part is over: what is
 * left is an ordinary workflow start, with the arguments the relay wrote.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('outbox', (t) => {
    t.timestamp('lease_until', { useTz: true });
    t.integer('leases').notNullable().defaultTo(0);
    t.timestamp('relayed_at', { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('outbox', (t) => {
    t.dropColumn('lease_until');
    t.dropColumn('leases');
    t.dropColumn('relayed_at');
  });
}
