import type { Knex } from 'knex';

/** Sequences: definitions, steps, enrollments, per-step sends (idempotency + analytics), unsubscribes. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('sequences', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('description');
    t.text('status').notNullable().defaultTo('draft'); // draft | active | paused | archived
    t.boolean('exit_on_meeting_booked').notNullable().defaultTo(false);
    t.specificType('exit_on_added_to_sequence_ids', 'uuid[]').notNullable().defaultTo('{}');
    t.boolean('skip_if_meeting_booked').notNullable().defaultTo(false);
    t.text('send_from_email');
    t.text('send_from_number');
    t.jsonb('sending_window');
    t.timestamps(true, true);
  });
  await knex.raw('CREATE INDEX sequences_team_list_idx ON sequences (team_id, created_at DESC, id DESC)');
  await knex.raw('CREATE INDEX sequences_exit_on_added_idx ON sequences USING gin (exit_on_added_to_sequence_ids)');

  await knex.schema.createTable('sequence_steps', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.uuid('sequence_id').notNullable().references('sequences.id').onDelete('CASCADE');
    t.integer('position').notNullable();
    t.text('channel').notNullable(); // email | sms
    t.integer('delay_value').notNullable().defaultTo(0);
    t.text('delay_unit').notNullable().defaultTo('days'); // minutes | hours | days
    t.text('subject');
    t.text('body').notNullable();
    t.timestamp('deleted_at', { useTz: true });
    t.timestamps(true, true);
  });
  await knex.raw('CREATE INDEX sequence_steps_live_idx ON sequence_steps (sequence_id, position) WHERE deleted_at IS NULL');

  await knex.schema.createTable('sequence_enrollments', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.uuid('sequence_id').notNullable().references('sequences.id').onDelete('CASCADE');
    t.uuid('contact_id').notNullable().references('contacts.id').onDelete('CASCADE');
    t.text('status').notNullable(); // active | completed | exited | skipped
    t.text('skip_reason');
    t.text('exit_reason');
    t.jsonb('exit_detail');
    t.integer('current_step').notNullable().defaultTo(0);
    t.integer('last_sent_position');
    t.timestamp('enrolled_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('ended_at', { useTz: true });
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(
    `CREATE UNIQUE INDEX sequence_enrollments_one_active_uq ON sequence_enrollments (sequence_id, contact_id) WHERE status = 'active'`,
  );
  await knex.raw('CREATE INDEX sequence_enrollments_list_idx ON sequence_enrollments (sequence_id, enrolled_at DESC, id DESC)');
  await knex.raw('CREATE INDEX sequence_enrollments_contact_idx ON sequence_enrollments (team_id, contact_id, enrolled_at DESC)');

  // One row per (enrollment, step): claimed before the send, so a retried activity never sends twice.
  await knex.schema.createTable('sequence_sends', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.uuid('sequence_id').notNullable().references('sequences.id').onDelete('CASCADE');
    t.uuid('enrollment_id').notNullable().references('sequence_enrollments.id').onDelete('CASCADE');
    t.uuid('step_id').notNullable().references('sequence_steps.id').onDelete('CASCADE');
    t.uuid('contact_id').notNullable();
    t.integer('position').notNullable();
    t.text('channel').notNullable();
    t.text('status').notNullable().defaultTo('claimed'); // claimed | sent | failed | unknown
    t.text('token').notNullable().unique();
    t.jsonb('links').notNullable().defaultTo('[]');
    t.text('provider_id');
    t.text('error');
    t.timestamp('claimed_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('sent_at', { useTz: true });
    t.timestamp('delivered_at', { useTz: true });
    t.timestamp('opened_at', { useTz: true });
    t.timestamp('clicked_at', { useTz: true });
    t.timestamp('bounced_at', { useTz: true });
    t.timestamp('failed_at', { useTz: true });
    t.unique(['enrollment_id', 'step_id']);
  });
  await knex.raw('CREATE INDEX sequence_sends_sequence_idx ON sequence_sends (sequence_id, step_id)');
  await knex.raw('CREATE INDEX sequence_sends_provider_idx ON sequence_sends (provider_id) WHERE provider_id IS NOT NULL');

  await knex.schema.createTable('sequence_unsubscribes', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.uuid('contact_id').notNullable().references('contacts.id').onDelete('CASCADE');
    t.text('channel').notNullable(); // email | sms
    t.text('source').notNullable(); // api | link | one_click | sms_stop
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['team_id', 'contact_id', 'channel']);
  });
  await knex.raw('CREATE INDEX sequence_unsubscribes_list_idx ON sequence_unsubscribes (team_id, created_at DESC, id DESC)');
}

export async function down(knex: Knex): Promise<void> {
  for (const t of ['sequence_unsubscribes', 'sequence_sends', 'sequence_enrollments', 'sequence_steps', 'sequences']) {
    await knex.schema.dropTableIfExists(t);
  }
}
