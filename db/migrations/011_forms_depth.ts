import type { Knex } from 'knex';

/**
 * Quiz results on a submission: `score` and `max_score` (null unless a quiz submission was
 * completed). Steps, logic and option points live in the form's `fields` JSONB.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE submissions ADD COLUMN score double precision, ADD COLUMN max_score double precision');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE submissions DROP COLUMN IF EXISTS score, DROP COLUMN IF EXISTS max_score');
}
