import type { Knex } from 'knex';

/**
 * Webhook subscriptions, one delivery per (subscription, event), one row per HTTP attempt, and
 * the per-endpoint in-flight leases (a Postgres-backed semaphore; see docs/webhooks.md).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhook_subscriptions', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.text('url').notNullable();
    t.text('description').notNullable().defaultTo('');
    t.specificType('events', 'text[]').notNullable();
    t.uuid('form_id'); // no FK: a deleted form leaves a subscription that simply matches nothing
    t.text('status').notNullable().defaultTo('active');
    t.text('disabled_reason');
    t.timestamp('disabled_at', { useTz: true });
    // Signing needs the secret itself, so it is stored (like Svix); never returned after create/rotate.
    t.text('secret').notNullable();
    t.text('previous_secret');
    t.timestamp('previous_secret_expires_at', { useTz: true });
    // Start of the current run of failures (null after a success): 5 days of it disables the endpoint.
    t.timestamp('failing_since', { useTz: true });
    t.timestamp('last_success_at', { useTz: true });
    t.timestamps(true, true);
  });
  await knex.raw(
    `ALTER TABLE webhook_subscriptions ADD CONSTRAINT webhook_subscriptions_status_ck CHECK (status IN ('active','disabled'))`,
  );
  await knex.raw('CREATE INDEX webhook_subscriptions_list_idx ON webhook_subscriptions (team_id, created_at DESC, id DESC)');
  await knex.raw(`CREATE INDEX webhook_subscriptions_active_idx ON webhook_subscriptions (team_id) WHERE status = 'active'`);

  await knex.schema.createTable('webhook_deliveries', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.uuid('subscription_id').notNullable().references('webhook_subscriptions.id').onDelete('CASCADE');
    t.uuid('event_id').notNullable().references('events.id').onDelete('CASCADE');
    t.text('event_type').notNullable();
    // The exact bytes sent on every attempt (signatures cover them).
    t.text('body').notNullable();
    t.text('status').notNullable().defaultTo('pending');
    t.integer('attempt_count').notNullable().defaultTo(0);
    t.integer('manual_retries').notNullable().defaultTo(0);
    t.timestamp('last_attempt_at', { useTz: true });
    t.timestamp('next_attempt_at', { useTz: true });
    t.timestamp('completed_at', { useTz: true });
    t.timestamps(true, true);
    t.unique(['subscription_id', 'event_id']);
  });
  await knex.raw(
    `ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_status_ck CHECK (status IN ('pending','succeeded','failed','cancelled'))`,
  );
  await knex.raw('CREATE INDEX webhook_deliveries_list_idx ON webhook_deliveries (subscription_id, created_at DESC, id DESC)');

  await knex.schema.createTable('webhook_attempts', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.uuid('delivery_id').notNullable().references('webhook_deliveries.id').onDelete('CASCADE');
    t.integer('attempt_number').notNullable();
    // `<workflow id>:<n>`: lets the workflow finish the row of an attempt whose worker died.
    t.text('attempt_key').notNullable();
    t.text('trigger').notNullable().defaultTo('scheduled');
    t.timestamp('attempted_at', { useTz: true }).notNullable();
    t.integer('duration_ms');
    t.integer('status_code');
    t.text('error');
    t.text('response_body');
    t.text('outcome'); // success | failure | gone; null while in flight
    t.timestamp('finished_at', { useTz: true });
    t.unique(['delivery_id', 'attempt_number']);
    t.unique(['attempt_key']);
  });

  await knex.schema.createTable('webhook_inflight', (t) => {
    t.uuid('subscription_id').notNullable().references('webhook_subscriptions.id').onDelete('CASCADE');
    t.text('holder').notNullable();
    t.timestamp('lease_expires_at', { useTz: true }).notNullable();
    t.primary(['subscription_id', 'holder']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const t of ['webhook_inflight', 'webhook_attempts', 'webhook_deliveries', 'webhook_subscriptions']) {
    await knex.schema.dropTableIfExists(t);
  }
}
