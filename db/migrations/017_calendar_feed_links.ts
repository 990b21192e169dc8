import type { Knex } from 'knex';

/**
 * Host feed URLs that can be shown again (docs/scheduling.md "Links the host can open"): a feed
 * token is now derived (HMAC of the user and a generation, key in app_secrets), so the API can put
 * the host's feed URL on their meetings. Rotating bumps the generation, which invalidates every
 * earlier URL; token_hash keeps accepting the random tokens made before this migration until then.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('calendar_feeds', (t) => {
    t.integer('generation').notNullable().defaultTo(0);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('calendar_feeds', (t) => {
    t.dropColumn('generation');
  });
}
