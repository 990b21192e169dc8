import type { Knex } from 'knex';

/**
 * Blocks (docs/sequences.md "Blocks"): rejections of our mail for the sending IP's reputation,
 * sender authentication, content or a sender policy. They never suppress the address; each team
 * sees how many of its messages were refused, by reason, and when the last one was.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('team_mail_blocks', (t) => {
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.text('reason').notNullable().checkIn(['reputation', 'authentication', 'content', 'policy']);
    t.bigInteger('count').notNullable().defaultTo(0);
    t.timestamp('last_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['team_id', 'reason']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('team_mail_blocks');
}
