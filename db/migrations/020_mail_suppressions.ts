import type { Knex } from 'knex';

/**
 * The suppression list (docs/sequences.md "Suppression list"): per team, a keyed hash
 * (HMAC-SHA256 with MAIL_SUPPRESSION_KEY) of the normalised address of a person who unsubscribed
 * or whose address hard-bounced. It outlives the contact: an erase keeps only this hash.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('email_suppressions', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.text('address_hash').notNullable(); // hex HMAC-SHA256 of the lower-cased address (plus-tags kept)
    t.text('reason').notNullable().checkIn(['unsubscribed', 'email_undeliverable']);
    t.text('source'); // what recorded it: contact_erased, email_changed
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['team_id', 'address_hash', 'reason']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('email_suppressions');
}
