import type { Knex } from 'knex';

/**
 * After the meeting (docs/scheduling.md "After the meeting"): the per-event-type AI notes switch
 * (off by default), why a meeting has no recording or no notes, the provider's recording id (a
 * fresh access link is minted from it on read), and the sealed transcripts with their expiry.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('event_types', (t) => {
    t.boolean('ai_notes_enabled').notNullable().defaultTo(false);
  });
  await knex.schema.alterTable('meetings', (t) => {
    t.text('recording_reason');
    t.text('ai_notes_reason');
    t.text('recording_provider_id');
  });
  await knex.raw(`ALTER TABLE meetings ADD CONSTRAINT meetings_recording_reason_check
    CHECK (recording_reason IN ('pending','no_video','provider_has_no_api','not_recorded','not_held'))`);
  await knex.raw(`ALTER TABLE meetings ADD CONSTRAINT meetings_ai_notes_reason_check
    CHECK (ai_notes_reason IN ('pending','disabled','not_configured','no_transcript','failed','erased','not_held'))`);
  await knex.schema.createTable('meeting_transcripts', (t) => {
    t.uuid('meeting_id').primary().references('meetings.id').onDelete('CASCADE');
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    // SecretBox envelope (core/secret-box.ts) bound to `meeting_transcripts:<meeting_id>`
    t.text('sealed').notNullable();
    t.text('format').notNullable();
    t.text('source').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.index(['expires_at']);
  });
  await knex.raw(`ALTER TABLE meeting_transcripts ADD CONSTRAINT meeting_transcripts_format_check CHECK (format IN ('vtt','text'))`);
  await knex.raw(
    `ALTER TABLE meeting_transcripts ADD CONSTRAINT meeting_transcripts_source_check CHECK (source IN ('provider','integrator'))`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('meeting_transcripts');
  await knex.schema.alterTable('meetings', (t) => {
    t.dropColumn('recording_reason');
    t.dropColumn('ai_notes_reason');
    t.dropColumn('recording_provider_id');
  });
  await knex.schema.alterTable('event_types', (t) => {
    t.dropColumn('ai_notes_enabled');
  });
}
