import type { Knex } from 'knex';

/**
 * Calendar sync (docs/calendars.md "What is synced"): the calendar objects a sync last saw (href,
 * ETag and a trimmed copy of the iCalendar text, so recurrences are expanded again as the window
 * moves without fetching them again), where a connection's window of expanded busy time ends, and
 * each user's merged busy time, which the slot engine reads.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('calendar_objects', (t) => {
    t.bigIncrements('id').primary();
    t.uuid('connection_id').notNullable().references('calendar_connections.id').onDelete('CASCADE');
    // Null for a feed: its one object is the whole feed.
    t.uuid('calendar_id').references('calendar_connection_calendars.id').onDelete('CASCADE');
    t.uuid('team_id').notNullable();
    t.uuid('user_id').notNullable();
    t.text('href').notNullable();
    t.text('etag');
    // The iCalendar text without descriptive properties (SUMMARY, DESCRIPTION, LOCATION…): only
    // what decides busy time (times, recurrence, transparency, status, attendees, time zones).
    t.text('data').notNullable();
    // The object is not valid iCalendar: kept (its ETag tells when it changes), gives no busy time.
    t.boolean('unreadable').notNullable().defaultTo(false);
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['connection_id', 'href']);
    t.index(['calendar_id']);
  });

  await knex.schema.alterTable('calendar_connections', (t) => {
    // The CalDAV calendar-home-set found by discovery (discovery runs again when it stops answering).
    t.text('home_url');
    // The window busy time was expanded for; a sync expands again once now + horizon passes its end.
    t.timestamp('expanded_from', { useTz: true });
    t.timestamp('expanded_until', { useTz: true });
    // Calendar objects that are not valid iCalendar (skipped, reported in status_message).
    t.integer('unreadable_count').notNullable().defaultTo(0);
  });

  await knex.schema.alterTable('calendar_connection_calendars', (t) => {
    // The server offers RFC 6578 sync-collection on this calendar (else the ctag decides).
    t.boolean('supports_sync').notNullable().defaultTo(false);
  });

  // What the slot engine reads: per user, the union of the busy time of every connected calendar
  // that blocks (checked for conflicts, or a feed), merged (PostgreSQL 14+ multirange). Rewritten
  // in the transaction of every change to the rows above (services/calendars/user-busy.ts).
  await knex.schema.createTable('calendar_user_busy', (t) => {
    t.uuid('user_id').primary().references('users.id').onDelete('CASCADE');
    t.specificType('busy', 'tstzmultirange').notNullable();
    // The same intervals as epoch milliseconds, "start,end,start,end…" in order: what the slot
    // engine reads (one short text per host, nothing to compute per request).
    t.text('busy_ms').notNullable().defaultTo('');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('CREATE INDEX calendar_busy_times_calendar ON calendar_busy_times (calendar_id)');
  // Our own bookings seen again on a host's calendar are recognised by their UID.
  await knex.raw('CREATE INDEX meetings_ical_uid ON meetings (ical_uid) WHERE ical_uid IS NOT NULL');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS meetings_ical_uid');
  await knex.raw('DROP INDEX IF EXISTS calendar_busy_times_calendar');
  await knex.schema.dropTableIfExists('calendar_user_busy');
  await knex.schema.alterTable('calendar_connection_calendars', (t) => {
    t.dropColumn('supports_sync');
  });
  await knex.schema.alterTable('calendar_connections', (t) => {
    t.dropColumn('unreadable_count');
    t.dropColumn('expanded_until');
    t.dropColumn('expanded_from');
    t.dropColumn('home_url');
  });
  await knex.schema.dropTableIfExists('calendar_objects');
}
