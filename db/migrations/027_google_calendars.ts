import type { Knex } from 'knex';

/**
 * Google Calendar connections (docs/calendars.md "Google Calendar"): a third kind of calendar
 * connection, whose sealed credentials (`credentials_enc`, core/secret-box.ts, bound to the row like
 * CalDAV passwords) hold the OAuth refresh and access tokens; the Google account's address (one
 * connection per account in a team); when the account was last read in full (the fail-closed rule:
 * a Google calendar never read, or not read for too long, blocks its host); and the push channels
 * (events.watch), each with the hash of its secret token, Google's resource id and its expiry.
 * Status `needs_reauth` (the grant is dead) and `disconnecting` (deleted; the worker stops the
 * channels and revokes the token, then the row goes).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('calendar_connections', (t) => {
    t.text('account_email');
    t.timestamp('last_read_at', { useTz: true });
  });
  await knex.raw(
    `CREATE UNIQUE INDEX calendar_connections_google_account ON calendar_connections (team_id, account_email) WHERE kind = 'google'`,
  );
  await knex.schema.createTable('calendar_push_channels', (t) => {
    // The channel id we chose (a UUID), echoed by Google in X-Goog-Channel-ID.
    t.text('id').primary();
    t.uuid('connection_id').notNullable().references('calendar_connections.id').onDelete('CASCADE');
    t.uuid('calendar_id').notNullable().references('calendar_connection_calendars.id').onDelete('CASCADE');
    t.uuid('team_id').notNullable();
    // SHA-256 (hex) of the channel's secret token (X-Goog-Channel-Token); the token itself is not kept.
    t.text('token_hash').notNullable();
    // Google's id of the watched resource (channels.stop needs it).
    t.text('resource_id').notNullable();
    t.timestamp('expires_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['connection_id']);
    t.index(['calendar_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('calendar_push_channels');
  await knex('calendar_connections').where({ kind: 'google' }).delete();
  await knex.raw('DROP INDEX IF EXISTS calendar_connections_google_account');
  await knex.schema.alterTable('calendar_connections', (t) => {
    t.dropColumn('last_read_at');
    t.dropColumn('account_email');
  });
}
