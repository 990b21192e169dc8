import type { Knex } from 'knex';

/**
 * What a calendar sync could not read, per component (docs/calendars.md, "One bad line"):
 * - `calendar_objects.skipped_count` and `skipped`: the lines, VTIMEZONEs and events of the object that
 *   were skipped (each `{what, reason}`; the first 20 are kept, the count is all of them);
 * - `calendar_connections.skipped_count` and `skipped`: the same over the connection's objects (the
 *   first 20), shown in the API's connection answer and in the sync workflow's details.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE calendar_objects
    ADD COLUMN skipped_count integer NOT NULL DEFAULT 0,
    ADD COLUMN skipped jsonb NOT NULL DEFAULT '[]'::jsonb`);
  await knex.raw(`ALTER TABLE calendar_connections
    ADD COLUMN skipped_count integer NOT NULL DEFAULT 0,
    ADD COLUMN skipped jsonb NOT NULL DEFAULT '[]'::jsonb`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE calendar_connections DROP COLUMN IF EXISTS skipped_count, DROP COLUMN IF EXISTS skipped`);
  await knex.raw(`ALTER TABLE calendar_objects DROP COLUMN IF EXISTS skipped_count, DROP COLUMN IF EXISTS skipped`);
}
