import type { Knex } from 'knex';

/**
 * Scheduling: pages, their hosts, event types, meetings (double booking impossible by an
 * exclusion constraint), our own calendar events, and secret iCalendar feed tokens per host.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE EXTENSION IF NOT EXISTS btree_gist');

  await knex.schema.createTable('scheduling_pages', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.text('title').notNullable();
    // Public booking URLs are /book/<slug>, so slugs are unique across teams.
    t.text('slug').notNullable().unique();
    t.text('description').notNullable().defaultTo('');
    t.text('type').notNullable().defaultTo('schedule');
    t.text('page_type').notNullable().defaultTo('one_on_one');
    t.text('status').notNullable().defaultTo('draft');
    t.jsonb('settings').notNullable().defaultTo('{}');
    t.boolean('remove_branding').notNullable().defaultTo(false);
    t.timestamp('published_at', { useTz: true });
    t.timestamps(true, true);
  });
  await knex.raw('CREATE INDEX scheduling_pages_list_idx ON scheduling_pages (team_id, created_at DESC, id DESC)');

  await knex.schema.createTable('scheduling_page_hosts', (t) => {
    t.uuid('page_id').notNullable().references('scheduling_pages.id').onDelete('CASCADE');
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.integer('position').notNullable().defaultTo(0);
    t.primary(['page_id', 'user_id']);
  });

  await knex.schema.createTable('event_types', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.uuid('scheduling_page_id').notNullable().references('scheduling_pages.id').onDelete('CASCADE');
    t.text('title').notNullable();
    t.text('slug').notNullable();
    t.text('description').notNullable().defaultTo('');
    t.integer('duration_minutes').notNullable().defaultTo(30);
    t.text('location_type').notNullable().defaultTo('video_provider_1');
    t.text('location_value');
    t.boolean('is_active').notNullable().defaultTo(true);
    t.text('color').notNullable().defaultTo('#3b82f6');
    t.integer('position').notNullable().defaultTo(0);
    t.integer('buffer_time_before').notNullable().defaultTo(0);
    t.integer('buffer_time_after').notNullable().defaultTo(0);
    t.integer('min_notice_minutes').notNullable().defaultTo(60);
    t.integer('max_booking_days').notNullable().defaultTo(14);
    t.integer('start_time_increment').notNullable().defaultTo(15);
    t.boolean('requires_confirmation').notNullable().defaultTo(false);
    t.boolean('guests_allowed').notNullable().defaultTo(false);
    t.timestamps(true, true);
    t.unique(['scheduling_page_id', 'slug']);
    t.index(['scheduling_page_id', 'position']);
  });

  await knex.schema.createTable('meetings', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.uuid('event_type_id').references('event_types.id').onDelete('SET NULL');
    t.uuid('scheduling_page_id').references('scheduling_pages.id').onDelete('SET NULL');
    t.uuid('host_user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.uuid('contact_id').references('contacts.id').onDelete('SET NULL');
    t.text('title').notNullable();
    t.text('description');
    t.text('attendee_name').notNullable();
    t.specificType('attendee_email', 'citext').notNullable();
    t.text('attendee_phone');
    t.timestamp('start_time', { useTz: true }).notNullable();
    t.timestamp('end_time', { useTz: true }).notNullable();
    // The time the host is blocked: start - buffer_before .. end + buffer_after.
    t.timestamp('block_start', { useTz: true }).notNullable();
    t.timestamp('block_end', { useTz: true }).notNullable();
    t.text('timezone').notNullable().defaultTo('UTC');
    t.text('status').notNullable();
    t.text('location_type');
    t.text('meeting_link');
    t.text('notes');
    t.jsonb('guests').notNullable().defaultTo('[]');
    t.text('cancellation_reason');
    t.jsonb('field_values').notNullable().defaultTo('{}');
    t.jsonb('ai_notes');
    t.jsonb('recording');
    t.boolean('confirmation_email_sent').notNullable().defaultTo(false);
    t.timestamps(true, true);
    t.index(['team_id', 'start_time']);
    t.index(['team_id', 'contact_id']);
    t.index(['host_user_id', 'start_time']);
  });
  await knex.raw(
    `ALTER TABLE meetings ADD CONSTRAINT meetings_time_check CHECK (end_time > start_time AND block_start <= start_time AND block_end >= end_time)`,
  );
  await knex.raw(`ALTER TABLE meetings ADD CONSTRAINT meetings_status_check
    CHECK (status IN ('pending_confirmation','scheduled','completed','cancelled','rescheduled','no_show'))`);
  // Double booking is impossible by construction (primary host).
  await knex.raw(`ALTER TABLE meetings ADD CONSTRAINT meetings_no_double_booking
    EXCLUDE USING gist (host_user_id WITH =, tstzrange(block_start, block_end) WITH &&)
    WHERE (status IN ('pending_confirmation','scheduled'))`);

  // Every host of a meeting (one for one-on-one and round-robin, all hosts for group pages),
  // guarded by the same kind of constraint so a group meeting also blocks its other hosts.
  await knex.schema.createTable('meeting_hosts', (t) => {
    t.uuid('meeting_id').notNullable().references('meetings.id').onDelete('CASCADE');
    t.uuid('host_user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.uuid('team_id').notNullable();
    t.timestamp('block_start', { useTz: true }).notNullable();
    t.timestamp('block_end', { useTz: true }).notNullable();
    t.boolean('active').notNullable().defaultTo(true);
    t.primary(['meeting_id', 'host_user_id']);
  });
  await knex.raw(`ALTER TABLE meeting_hosts ADD CONSTRAINT meeting_hosts_no_double_booking
    EXCLUDE USING gist (host_user_id WITH =, tstzrange(block_start, block_end) WITH &&) WHERE (active)`);

  await knex.schema.createTable('calendar_events', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.uuid('host_user_id').notNullable().references('users.id').onDelete('CASCADE');
    // Set null (not cascade) so the cleanup workflow still finds the event of a deleted meeting.
    t.uuid('meeting_id').references('meetings.id').onDelete('SET NULL');
    // 'meeting': the calendar entry of one of our meetings; 'external': other busy time of the host.
    t.text('source').notNullable().defaultTo('meeting');
    t.text('summary').notNullable();
    t.text('description');
    t.text('location');
    t.timestamp('start_time', { useTz: true }).notNullable();
    t.timestamp('end_time', { useTz: true }).notNullable();
    t.integer('sequence').notNullable().defaultTo(0);
    t.timestamps(true, true);
    t.index(['host_user_id', 'start_time']);
    t.index(['meeting_id']);
  });

  await knex.schema.createTable('calendar_feeds', (t) => {
    t.uuid('user_id').primary().references('users.id').onDelete('CASCADE');
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.text('token_hash').notNullable().unique();
    t.timestamps(true, true);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const t of [
    'calendar_feeds',
    'calendar_events',
    'meeting_hosts',
    'meetings',
    'event_types',
    'scheduling_page_hosts',
    'scheduling_pages',
  ]) {
    await knex.schema.dropTableIfExists(t);
  }
}
