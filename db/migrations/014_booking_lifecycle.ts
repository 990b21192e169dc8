import type { Knex } from 'knex';

/**
 * The booking lifecycle: a reschedule links the old and the new meeting both ways and keeps the
 * iCalendar UID (the new meeting carries the first meeting's UID and a higher SEQUENCE, so calendars
 * move the event). `app_secrets` holds secrets the service makes for itself (the key that signs
 * attendee and host links), so every process agrees on them without configuration.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('meetings', (t) => {
    t.text('ical_uid').nullable();
    t.integer('ical_sequence').notNullable().defaultTo(0);
    t.uuid('rescheduled_from_id').nullable().references('id').inTable('meetings').onDelete('SET NULL');
    t.uuid('rescheduled_to_id').nullable().references('id').inTable('meetings').onDelete('SET NULL');
  });
  await knex.schema.createTable('app_secrets', (t) => {
    t.text('name').primary();
    t.text('value').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('app_secrets');
  await knex.schema.alterTable('meetings', (t) => {
    t.dropColumn('rescheduled_to_id');
    t.dropColumn('rescheduled_from_id');
    t.dropColumn('ical_sequence');
    t.dropColumn('ical_uid');
  });
}
