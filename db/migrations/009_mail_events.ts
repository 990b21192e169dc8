import type { Knex } from 'knex';

/**
 * Mail that tells the truth (docs/sequences.md "Mail in and out"): per-send acceptance and bounce
 * detail, complaints and replies; undeliverable addresses; `exit_on_reply`; the inbound mail store.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sequences', (t) => {
    t.boolean('exit_on_reply').notNullable().defaultTo(true);
  });
  await knex.schema.alterTable('sequence_sends', (t) => {
    t.text('message_id'); // the RFC 5322 Message-ID we sent, `<...>`
    t.timestamp('accepted_at', { useTz: true }); // the SMTP server answered 250 to DATA
    t.text('bounce_type'); // hard | soft
    t.text('bounce_status'); // enhanced status (5.1.1) or SMTP reply code
    t.text('bounce_detail');
    t.timestamp('complained_at', { useTz: true });
    t.timestamp('replied_at', { useTz: true });
    t.timestamp('auto_replied_at', { useTz: true });
    t.timestamp('unsubscribed_at', { useTz: true });
  });
  await knex.raw('CREATE INDEX sequence_sends_message_id_idx ON sequence_sends (message_id) WHERE message_id IS NOT NULL');
  await knex.schema.alterTable('contacts', (t) => {
    t.timestamp('email_undeliverable_at', { useTz: true });
    t.text('email_undeliverable_reason');
  });
  // Every message our inbound listener accepted, stored before it is classified.
  await knex.schema.createTable('inbound_emails', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('mail_from');
    t.specificType('rcpt_to', 'text[]').notNullable();
    t.text('remote_ip');
    t.integer('size').notNullable();
    t.binary('raw').notNullable();
    t.text('kind'); // bounce | complaint | auto_reply | reply | unknown
    t.jsonb('detail');
    t.uuid('send_id');
    t.timestamp('received_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('processed_at', { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('inbound_emails');
  await knex.schema.alterTable('contacts', (t) => {
    t.dropColumn('email_undeliverable_at');
    t.dropColumn('email_undeliverable_reason');
  });
  await knex.raw('DROP INDEX IF EXISTS sequence_sends_message_id_idx');
  await knex.schema.alterTable('sequence_sends', (t) => {
    for (const c of [
      'message_id',
      'accepted_at',
      'bounce_type',
      'bounce_status',
      'bounce_detail',
      'complained_at',
      'replied_at',
      'auto_replied_at',
      'unsubscribed_at',
    ])
      t.dropColumn(c);
  });
  await knex.schema.alterTable('sequences', (t) => t.dropColumn('exit_on_reply'));
}
