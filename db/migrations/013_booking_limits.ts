import type { Knex } from 'knex';

/** Per event type: at most N bookings a day / a week per host, in the host's timezone (null: no limit). */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('event_types', (t) => {
    t.integer('max_bookings_per_day').nullable();
    t.integer('max_bookings_per_week').nullable();
  });
  // Counting a host's bookings of one event type in a time window (the limit check in the booking transaction).
  await knex.raw('CREATE INDEX meetings_event_type_host_start_idx ON meetings (event_type_id, host_user_id, start_time)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS meetings_event_type_host_start_idx');
  await knex.schema.alterTable('event_types', (t) => {
    t.dropColumn('max_bookings_per_day');
    t.dropColumn('max_bookings_per_week');
  });
}
