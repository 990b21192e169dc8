import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE EXTENSION IF NOT EXISTS btree_gist');
  await knex.raw('CREATE EXTENSION IF NOT EXISTS citext');

  await knex.schema.createTable('teams', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('name').notNullable();
    t.text('plan').notNullable().defaultTo('free');
    t.jsonb('settings').notNullable().defaultTo('{}');
    t.timestamps(true, true);
  });

  await knex.schema.createTable('users', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.specificType('email', 'citext').notNullable().unique();
    t.text('name');
    t.text('password_hash');
    t.text('role').notNullable().defaultTo('member');
    t.text('timezone').notNullable().defaultTo('UTC');
    t.boolean('is_staff').notNullable().defaultTo(false);
    t.timestamps(true, true);
    t.index(['team_id']);
  });

  await knex.schema.createTable('api_keys', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.text('name');
    t.text('prefix').notNullable();
    t.text('key_hash').notNullable().unique();
    t.specificType('scopes', 'text[]').notNullable();
    t.uuid('created_by').references('users.id').onDelete('SET NULL');
    t.timestamp('last_used_at', { useTz: true });
    t.timestamp('revoked_at', { useTz: true });
    t.timestamps(true, true);
    t.index(['team_id', 'created_at']);
  });

  await knex.schema.createTable('sessions', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('token_hash').notNullable().unique();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('availability_schedules', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('timezone').notNullable();
    t.boolean('is_default').notNullable().defaultTo(false);
    t.jsonb('rules').notNullable().defaultTo('[]');
    t.timestamps(true, true);
    t.index(['team_id', 'user_id']);
  });

  await knex.schema.createTable('availability_date_overrides', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('schedule_id').notNullable().references('availability_schedules.id').onDelete('CASCADE');
    t.date('date').notNullable();
    t.boolean('is_unavailable').notNullable().defaultTo(true);
    t.text('start');
    t.text('end');
    t.text('reason');
    t.timestamps(true, true);
    t.unique(['schedule_id', 'date']);
  });

  // Contacts live in the foundation because forms, bookings and sequences all create them.
  await knex.schema.createTable('contacts', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.specificType('email', 'citext');
    t.text('phone');
    t.text('first_name');
    t.text('last_name');
    t.text('timezone');
    t.jsonb('custom_fields').notNullable().defaultTo('{}');
    t.boolean('unsubscribed_email').notNullable().defaultTo(false);
    t.boolean('unsubscribed_sms').notNullable().defaultTo(false);
    t.timestamp('deleted_at', { useTz: true });
    t.timestamps(true, true);
    t.index(['team_id', 'created_at']);
  });
  await knex.raw('CREATE UNIQUE INDEX contacts_team_email_uq ON contacts (team_id, email) WHERE deleted_at IS NULL AND email IS NOT NULL');

  // Outbox: a row per workflow start, written in the same transaction as the change that needs it.
  await knex.schema.createTable('outbox', (t) => {
    t.bigIncrements('id').primary();
    t.text('workflow_type').notNullable();
    t.text('workflow_id').notNullable();
    t.text('task_queue').notNullable();
    t.jsonb('args').notNullable().defaultTo('[]');
    t.jsonb('search_attributes').notNullable().defaultTo('{}');
    t.jsonb('memo').notNullable().defaultTo('{}');
    t.timestamp('start_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('started_at', { useTz: true });
    t.integer('attempts').notNullable().defaultTo(0);
    t.text('last_error');
  });
  await knex.raw('CREATE INDEX outbox_pending_idx ON outbox (id) WHERE started_at IS NULL');

  // Domain events (submission.created, …): the webhooks feature fans them out.
  await knex.schema.createTable('events', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.text('type').notNullable();
    t.uuid('form_id');
    t.jsonb('payload').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['team_id', 'created_at']);
  });

  await knex.schema.createTable('idempotency_keys', (t) => {
    t.text('scope').notNullable(); // credential or team
    t.text('key').notNullable();
    t.text('method').notNullable();
    t.text('path').notNullable();
    t.text('request_hash').notNullable();
    t.integer('status');
    t.jsonb('body');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['scope', 'key']);
  });

  // Shared rate-limit counters (rate-limiter-flexible's Postgres store layout).
  await knex.raw(`CREATE UNLOGGED TABLE rate_limits (key varchar(255) PRIMARY KEY, points integer NOT NULL DEFAULT 0, expire bigint)`);
}

export async function down(knex: Knex): Promise<void> {
  for (const t of [
    'rate_limits',
    'idempotency_keys',
    'events',
    'outbox',
    'contacts',
    'availability_date_overrides',
    'availability_schedules',
    'sessions',
    'api_keys',
    'users',
    'teams',
  ]) {
    await knex.schema.dropTableIfExists(t);
  }
}
