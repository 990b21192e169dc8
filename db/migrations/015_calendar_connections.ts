import type { Knex } from 'knex';

/**
 * Host calendars (docs/calendars.md): a user's CalDAV accounts and secret iCalendar feeds, the
 * calendars a CalDAV account holds, the busy time synced from them, and where each booking was
 * written back. Credentials (and a feed's secret URL) are stored only encrypted (AES-256-GCM).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('calendar_connections', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    // 'caldav' | 'ics_feed'
    t.text('kind').notNullable();
    t.text('name').notNullable();
    // What can be shown: the CalDAV server URL, or a feed's scheme and host only (its path is the secret).
    t.text('display_url').notNullable();
    // AES-256-GCM envelope (core/secret-box.ts) of {url, username, password} or {url}.
    t.text('credentials_enc').notNullable();
    // 'ok' | 'syncing' | 'error'; status_message is the human text of an error.
    t.text('status').notNullable().defaultTo('syncing');
    t.text('status_message');
    t.timestamp('last_synced_at', { useTz: true });
    t.timestamp('last_error_at', { useTz: true });
    // A feed's ETag / Last-Modified, for If-None-Match / If-Modified-Since.
    t.text('etag');
    t.text('last_modified');
    t.integer('event_count').notNullable().defaultTo(0);
    t.integer('busy_count').notNullable().defaultTo(0);
    t.timestamps(true, true);
    t.index(['team_id', 'user_id']);
  });

  // The calendars of a CalDAV connection (a feed has none).
  await knex.schema.createTable('calendar_connection_calendars', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('connection_id').notNullable().references('calendar_connections.id').onDelete('CASCADE');
    t.uuid('team_id').notNullable();
    t.uuid('user_id').notNullable();
    t.text('url').notNullable();
    t.text('display_name').notNullable();
    t.text('color');
    t.text('timezone');
    t.boolean('read_only').notNullable().defaultTo(false);
    t.boolean('check_conflicts').notNullable().defaultTo(true);
    t.boolean('is_booking_calendar').notNullable().defaultTo(false);
    t.text('ctag');
    t.text('sync_token');
    t.integer('event_count').notNullable().defaultTo(0);
    t.timestamp('last_synced_at', { useTz: true });
    t.timestamps(true, true);
    t.unique(['connection_id', 'url']);
  });
  // At most one calendar per user receives bookings.
  await knex.raw(
    'CREATE UNIQUE INDEX calendar_connection_calendars_one_booking ON calendar_connection_calendars (user_id) WHERE is_booking_calendar',
  );

  // Busy time cached per connection: one row per occurrence, grouped by the calendar object (href)
  // it came from so an incremental sync replaces exactly the objects that changed.
  await knex.schema.createTable('calendar_busy_times', (t) => {
    t.bigIncrements('id').primary();
    t.uuid('connection_id').notNullable().references('calendar_connections.id').onDelete('CASCADE');
    t.uuid('calendar_id').references('calendar_connection_calendars.id').onDelete('CASCADE');
    t.uuid('team_id').notNullable();
    t.uuid('user_id').notNullable();
    t.text('object_href').notNullable();
    t.text('uid');
    t.timestamp('start_time', { useTz: true }).notNullable();
    t.timestamp('end_time', { useTz: true }).notNullable();
    t.index(['user_id', 'start_time']);
    t.index(['connection_id', 'object_href']);
  });

  // Where a meeting was written on a host's calendar (one row per meeting and calendar).
  await knex.schema.createTable('meeting_calendar_writes', (t) => {
    t.uuid('meeting_id').notNullable();
    t.uuid('calendar_id').notNullable().references('calendar_connection_calendars.id').onDelete('CASCADE');
    t.uuid('connection_id').notNullable().references('calendar_connections.id').onDelete('CASCADE');
    t.uuid('team_id').notNullable();
    t.text('uid').notNullable();
    t.text('href').notNullable();
    t.text('etag');
    // The event's URL on the host's server when the server gives one.
    t.text('html_url');
    t.integer('sequence').notNullable().defaultTo(0);
    // 'written' | 'removed'
    t.text('state').notNullable().defaultTo('written');
    t.timestamps(true, true);
    t.primary(['meeting_id', 'calendar_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const t of ['meeting_calendar_writes', 'calendar_busy_times', 'calendar_connection_calendars', 'calendar_connections']) {
    await knex.schema.dropTableIfExists(t);
  }
}
