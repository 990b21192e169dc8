import type { Knex } from 'knex';

/**
 * Mail that tells the truth, continued (docs/sequences.md "Mail in and out"):
 * - sequence sends keep the queue id of the SMTP 250 answer (SendGrid's `sg_message_id` starts with
 *   it) and count machine opens and scanner clicks apart from human ones;
 * - mail that is not a sequence step (booking emails) is tracked too, so a reply, a bounce or a
 *   complaint to it is matched;
 * - the contact's timeline (a reply to any of our mail lands there);
 * - the audit of contact-made unsubscribes removed through the API with an explicit override.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sequence_sends', (t) => {
    t.text('smtp_queue_id'); // "250 Ok: queued as <id>": SendGrid's X-Message-Id, Postfix's queue id
    t.timestamp('machine_opened_at', { useTz: true }); // first open by a prefetching proxy (Apple MPP…)
    t.timestamp('scanner_clicked_at', { useTz: true }); // first click by a link scanner
  });
  await knex.raw('CREATE INDEX sequence_sends_smtp_queue_id_idx ON sequence_sends (smtp_queue_id) WHERE smtp_queue_id IS NOT NULL');

  // Mail we send that is not a sequence step (booking confirmations, reminders, cancellations).
  await knex.schema.createTable('outbound_emails', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.uuid('contact_id').references('contacts.id').onDelete('SET NULL');
    t.uuid('meeting_id'); // no foreign key: a deleted meeting's cancellation is still sent (and tracked)
    t.text('kind').notNullable(); // e.g. meeting.confirmation, meeting.cancellation
    t.text('recipient').notNullable();
    t.text('token').notNullable().unique(); // in the VERP return path and the Reply-To
    t.text('message_id').notNullable();
    t.text('smtp_queue_id');
    t.timestamp('accepted_at', { useTz: true });
    t.timestamp('bounced_at', { useTz: true });
    t.text('bounce_type');
    t.text('bounce_status');
    t.timestamp('complained_at', { useTz: true });
    t.timestamp('replied_at', { useTz: true });
    t.timestamp('auto_replied_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('CREATE INDEX outbound_emails_message_id_idx ON outbound_emails (message_id)');
  await knex.raw('CREATE INDEX outbound_emails_meeting_idx ON outbound_emails (meeting_id) WHERE meeting_id IS NOT NULL');
  await knex.schema.alterTable('inbound_emails', (t) => {
    t.uuid('outbound_email_id');
  });

  await knex.schema.createTable('contact_timeline', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.uuid('contact_id').notNullable().references('contacts.id').onDelete('CASCADE');
    t.text('type').notNullable(); // email.replied
    t.timestamp('occurred_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.jsonb('detail').notNullable().defaultTo('{}');
    t.uuid('inbound_email_id');
  });
  await knex.raw('CREATE INDEX contact_timeline_contact_idx ON contact_timeline (contact_id, occurred_at DESC, id DESC)');
  await knex.raw(
    'CREATE UNIQUE INDEX contact_timeline_inbound_uq ON contact_timeline (inbound_email_id) WHERE inbound_email_id IS NOT NULL',
  );

  // Who removed an unsubscribe the contact made (STOP, one-click, complaint, provider), and when.
  await knex.schema.createTable('unsubscribe_overrides', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.uuid('contact_id').notNullable().references('contacts.id').onDelete('CASCADE');
    t.jsonb('removed').notNullable(); // [{channel, source, created_at}]
    t.text('actor_kind').notNullable(); // api_key | session | oauth
    t.text('actor_credential_id').notNullable();
    t.uuid('actor_user_id');
    t.text('reason');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('CREATE INDEX unsubscribe_overrides_contact_idx ON unsubscribe_overrides (team_id, contact_id, created_at DESC)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('unsubscribe_overrides');
  await knex.schema.dropTableIfExists('contact_timeline');
  await knex.schema.alterTable('inbound_emails', (t) => t.dropColumn('outbound_email_id'));
  await knex.schema.dropTableIfExists('outbound_emails');
  await knex.raw('DROP INDEX IF EXISTS sequence_sends_smtp_queue_id_idx');
  await knex.schema.alterTable('sequence_sends', (t) => {
    for (const c of ['smtp_queue_id', 'machine_opened_at', 'scanner_clicked_at']) t.dropColumn(c);
  });
}
