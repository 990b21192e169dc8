import type { Knex } from 'knex';

/**
 * Microsoft 365 calendar connections (docs/calendars.md "Microsoft 365"): a fourth kind of calendar
 * connection (`microsoft`; `kind` is free text, typed in db/tables.ts), one per Microsoft account in a
 * team like Google's, whose sealed credentials hold the OAuth tokens. Graph subscriptions live in
 * calendar_push_channels (027) like Google's channels: `id` is Graph's subscription id, `token_hash`
 * the SHA-256 of its clientState, `resource_id` the subscribed resource. A calendar's stored deltaLink
 * is its `sync_token`; `delta_from`/`delta_until` are the calendarView window the round covers, so the
 * round is restarted when the window has moved on.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    `CREATE UNIQUE INDEX calendar_connections_microsoft_account ON calendar_connections (team_id, account_email) WHERE kind = 'microsoft'`,
  );
  await knex.schema.alterTable('calendar_connection_calendars', (t) => {
    t.timestamp('delta_from', { useTz: true });
    t.timestamp('delta_until', { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex('calendar_connections').where({ kind: 'microsoft' }).delete();
  await knex.schema.alterTable('calendar_connection_calendars', (t) => {
    t.dropColumn('delta_until');
    t.dropColumn('delta_from');
  });
  await knex.raw('DROP INDEX IF EXISTS calendar_connections_microsoft_account');
}
