import type { Knex } from 'knex';

/**
 * Bookings written to Google Calendar (docs/calendars.md "Google Calendar", docs/scheduling.md
 * "Host calendars: write-back"):
 * - an event type may send its bookings to another writable calendar of its host than the host's
 *   booking calendar (`destination_calendar_id`; the calendar going away clears it);
 * - a write records the provider's own event id and its iCalendar UID (a Google event's id is ours,
 *   derived from the meeting's UID; its iCalUID is Google's, so the sync knows our own events);
 * - when a Google connection turned `needs_reauth`, the one email to its host is recorded
 *   (`reauth_email_sent_at`; cleared when the account is connected again).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('event_types', (t) => {
    t.uuid('destination_calendar_id').references('calendar_connection_calendars.id').onDelete('SET NULL');
  });
  await knex.schema.alterTable('meeting_calendar_writes', (t) => {
    t.text('provider_event_id');
    t.text('provider_ical_uid');
    t.index(['provider_ical_uid']);
  });
  await knex.schema.alterTable('calendar_connections', (t) => {
    t.timestamp('reauth_email_sent_at', { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('calendar_connections', (t) => {
    t.dropColumn('reauth_email_sent_at');
  });
  await knex.schema.alterTable('meeting_calendar_writes', (t) => {
    t.dropIndex(['provider_ical_uid']);
    t.dropColumn('provider_ical_uid');
    t.dropColumn('provider_event_id');
  });
  await knex.schema.alterTable('event_types', (t) => {
    t.dropColumn('destination_calendar_id');
  });
}
