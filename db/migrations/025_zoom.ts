import type { Knex } from 'knex';

/**
 * Zoom as video provider 1 or 2 (docs/scheduling.md "Zoom"): the hosts' own Zoom connections
 * (per-host OAuth; tokens sealed at rest), and one row per booked meeting holding its Zoom meeting,
 * written before the create call so a retry never makes a second one, and what Zoom's webhooks
 * said of its recording and transcript. Two more reasons a meeting has no recording.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('zoom_connections', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.uuid('user_id').notNullable().unique().references('users.id').onDelete('CASCADE');
    t.text('zoom_user_id').notNullable();
    t.text('zoom_account_id').notNullable();
    // SecretBox envelopes (core/secret-box.ts) bound to `zoom_connections:<id>`
    t.text('refresh_token_sealed').notNullable();
    t.text('access_token_sealed');
    t.timestamp('access_expires_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['zoom_user_id']);
  });
  // No foreign key to meetings: the cleanup deletes the Zoom meeting after the meeting row is gone.
  await knex.schema.createTable('zoom_meetings', (t) => {
    t.uuid('meeting_id').primary();
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.uuid('connection_id').references('zoom_connections.id').onDelete('SET NULL');
    /** The Zoom user the meeting is made for: a user id (per host) or the host's email (per installation). */
    t.text('zoom_user').notNullable();
    /** Written into the agenda: a retry finds a meeting whose create answer was lost. */
    t.text('marker').notNullable();
    t.text('zoom_meeting_id').unique();
    t.text('join_url');
    t.boolean('cloud_recording');
    t.timestamp('deleted_in_zoom_at', { useTz: true });
    t.text('recording_id');
    t.text('recording_url');
    t.integer('recording_seconds');
    t.text('transcript_url');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('ALTER TABLE meetings DROP CONSTRAINT meetings_recording_reason_check');
  await knex.raw(`ALTER TABLE meetings ADD CONSTRAINT meetings_recording_reason_check
    CHECK (recording_reason IN ('pending','no_video','provider_has_no_api','not_recorded','not_held','cloud_recording_off','video_meeting_deleted'))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE meetings DROP CONSTRAINT meetings_recording_reason_check');
  await knex('meetings')
    .whereIn('recording_reason', ['cloud_recording_off', 'video_meeting_deleted'])
    .update({ recording_reason: 'not_recorded' });
  await knex.raw(`ALTER TABLE meetings ADD CONSTRAINT meetings_recording_reason_check
    CHECK (recording_reason IN ('pending','no_video','provider_has_no_api','not_recorded','not_held'))`);
  await knex.schema.dropTable('zoom_meetings');
  await knex.schema.dropTable('zoom_connections');
}
