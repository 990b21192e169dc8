import type { Knex } from 'knex';

/**
 * Accounts: invitations, single-use tokens (invitation links, password resets, email changes;
 * only their SHA-256 is stored), session details (last use, user agent, IP), the avatar URL and
 * the removal mark of a member. A removed member's user row stays (their meetings and pages
 * reference it) with `removed_at` set; it can no longer sign in and is no longer listed.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.text('avatar_url');
    t.timestamp('removed_at', { useTz: true });
  });
  await knex.schema.alterTable('sessions', (t) => {
    t.timestamp('last_used_at', { useTz: true });
    t.text('user_agent');
    t.text('ip');
    t.index(['user_id', 'created_at']);
  });

  await knex.schema.createTable('team_invitations', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.specificType('email', 'citext').notNullable();
    t.text('role').notNullable();
    t.text('status').notNullable().defaultTo('pending');
    t.uuid('invited_by').references('users.id').onDelete('SET NULL');
    t.integer('send_count').notNullable().defaultTo(1);
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('last_sent_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.uuid('accepted_user_id').references('users.id').onDelete('SET NULL');
    t.timestamp('accepted_at', { useTz: true });
    t.timestamp('revoked_at', { useTz: true });
    t.timestamps(true, true);
  });
  await knex.raw(`ALTER TABLE team_invitations ADD CONSTRAINT team_invitations_role_check CHECK (role IN ('owner','admin','member'))`);
  await knex.raw(
    `ALTER TABLE team_invitations ADD CONSTRAINT team_invitations_status_check CHECK (status IN ('pending','accepted','revoked','expired'))`,
  );
  // One open invitation per address and team.
  await knex.raw(`CREATE UNIQUE INDEX team_invitations_pending_uq ON team_invitations (team_id, email) WHERE status = 'pending'`);
  await knex.raw('CREATE INDEX team_invitations_list_idx ON team_invitations (team_id, created_at DESC, id DESC)');

  await knex.schema.createTable('account_tokens', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('kind').notNullable(); // invitation | password_reset | email_change
    t.text('token_hash').notNullable().unique();
    t.uuid('user_id').references('users.id').onDelete('CASCADE');
    t.uuid('invitation_id').references('team_invitations.id').onDelete('CASCADE');
    // Which request issued it (a workflow's request id): a retried activity finds its own token.
    t.text('request_id');
    t.specificType('new_email', 'citext');
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['user_id', 'kind']);
    t.index(['invitation_id']);
    t.index(['request_id']);
  });
  await knex.raw(
    `ALTER TABLE account_tokens ADD CONSTRAINT account_tokens_kind_check CHECK (kind IN ('invitation','password_reset','email_change'))`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('account_tokens');
  await knex.schema.dropTableIfExists('team_invitations');
  await knex.schema.alterTable('sessions', (t) => {
    t.dropIndex(['user_id', 'created_at']);
    t.dropColumns('last_used_at', 'user_agent', 'ip');
  });
  await knex.schema.alterTable('users', (t) => t.dropColumns('avatar_url', 'removed_at'));
}
