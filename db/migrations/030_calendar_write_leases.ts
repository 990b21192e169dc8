import type { Knex } from 'knex';

/**
 * Calendar writes in flight per account (docs/calendars.md "Limits"): a lease per provider call that
 * writes or removes a booking's event (services/calendars/write-leases.ts). A lease is taken under a
 * transaction-scoped advisory lock on its connection, only while fewer than
 * `CALENDAR_WRITES_PER_ACCOUNT` are live, and deleted when the call is over; one a lost worker left
 * behind is dropped once `expires_at` has passed.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('calendar_write_leases', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('connection_id').notNullable().references('calendar_connections.id').onDelete('CASCADE');
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['connection_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('calendar_write_leases');
}
