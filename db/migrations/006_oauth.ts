import type { Knex } from 'knex';

/** OAuth 2.0 apps, codes, tokens, installs, review history and marketplace reviews. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('apps', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.uuid('created_by').references('users.id').onDelete('SET NULL');
    t.text('name').notNullable();
    t.text('description').notNullable();
    t.text('short_description');
    t.text('website_url').notNullable();
    t.text('privacy_policy_url');
    t.text('terms_url');
    t.text('documentation_url');
    t.text('category');
    t.specificType('redirect_uris', 'text[]').notNullable();
    t.specificType('scopes', 'text[]').notNullable();
    t.specificType('screenshots', 'text[]').notNullable().defaultTo('{}');
    t.binary('icon_png');
    t.integer('icon_width');
    t.integer('icon_height');
    t.integer('icon_bytes');
    t.text('client_id').notNullable().unique();
    t.text('client_secret_hash').notNullable();
    // development | in_review | changes_requested | approved | rejected
    t.text('status').notNullable().defaultTo('development');
    // null | submission | review | security_verification | changes_requested | approved | rejected
    t.text('review_stage');
    t.integer('review_round').notNullable().defaultTo(0);
    // The approved version shown in the marketplace and used by the authorize flow once approved.
    t.jsonb('live');
    t.timestamp('submitted_at', { useTz: true });
    t.timestamp('approved_at', { useTz: true });
    t.timestamps(true, true);
    t.index(['team_id', 'created_at', 'id']);
  });
  await knex.raw(`CREATE INDEX apps_listed_idx ON apps (approved_at DESC, id DESC) WHERE live IS NOT NULL`);

  await knex.schema.createTable('app_review_events', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.uuid('app_id').notNullable().references('apps.id').onDelete('CASCADE');
    t.integer('round').notNullable();
    t.text('stage').notNullable();
    t.text('outcome');
    t.text('notes');
    t.uuid('actor_user_id').references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['app_id', 'created_at']);
  });

  await knex.schema.createTable('app_installs', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.uuid('app_id').notNullable().references('apps.id').onDelete('CASCADE');
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.specificType('scopes', 'text[]').notNullable();
    t.timestamp('revoked_at', { useTz: true });
    t.timestamps(true, true);
    t.unique(['app_id', 'user_id']);
    t.index(['user_id', 'created_at', 'id']);
  });

  await knex.schema.createTable('oauth_codes', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.uuid('app_id').notNullable().references('apps.id').onDelete('CASCADE');
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('code_hash').notNullable().unique();
    t.text('redirect_uri').notNullable();
    t.specificType('scopes', 'text[]').notNullable();
    t.text('code_challenge').notNullable();
    t.text('code_challenge_method').notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  // One row per issuance (an access token and its refresh token). A family is every row
  // descended from one authorization code by refresh.
  await knex.schema.createTable('oauth_tokens', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.uuid('app_id').notNullable().references('apps.id').onDelete('CASCADE');
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.uuid('family_id').notNullable();
    t.uuid('code_id').references('oauth_codes.id').onDelete('SET NULL');
    t.text('access_hash').notNullable().unique();
    t.text('refresh_hash').unique();
    t.specificType('scopes', 'text[]').notNullable();
    t.timestamp('access_expires_at', { useTz: true }).notNullable();
    t.timestamp('refresh_expires_at', { useTz: true });
    t.timestamp('rotated_at', { useTz: true });
    t.timestamp('revoked_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['family_id']);
    t.index(['app_id', 'user_id']);
  });

  await knex.schema.createTable('app_ratings', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.uuid('app_id').notNullable().references('apps.id').onDelete('CASCADE');
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.integer('rating').notNullable();
    t.text('title');
    t.text('body');
    t.timestamps(true, true);
    t.unique(['app_id', 'user_id']);
    t.index(['app_id', 'created_at', 'id']);
  });
  await knex.raw('ALTER TABLE app_ratings ADD CONSTRAINT app_ratings_range CHECK (rating BETWEEN 1 AND 5)');
}

export async function down(knex: Knex): Promise<void> {
  for (const t of ['app_ratings', 'oauth_tokens', 'oauth_codes', 'app_installs', 'app_review_events', 'apps']) {
    await knex.schema.dropTableIfExists(t);
  }
}
