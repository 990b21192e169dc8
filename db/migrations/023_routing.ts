import type { Knex } from 'knex';

/**
 * Routing a submission into a booking (docs/forms.md "Routing"):
 * - `submissions.routing`: the target a completed submission was routed to (null when the form
 *   has no routing rules, or the submission did not qualify);
 * - `meetings.submission_id` and `meetings.form_id`: the submission (and its form) a routed booking
 *   came from (its answers are the meeting's `field_values`), and `meetings.source` (`routing`;
 *   null for a plain booking).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE submissions ADD COLUMN routing jsonb`);
  await knex.raw(`ALTER TABLE meetings
    ADD COLUMN submission_id uuid REFERENCES submissions(id) ON DELETE SET NULL,
    ADD COLUMN form_id uuid REFERENCES forms(id) ON DELETE SET NULL,
    ADD COLUMN source text CHECK (source = ANY (ARRAY['routing'::text]))`);
  await knex.raw(`CREATE INDEX meetings_submission_idx ON meetings (submission_id) WHERE submission_id IS NOT NULL`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE meetings DROP COLUMN IF EXISTS submission_id, DROP COLUMN IF EXISTS form_id, DROP COLUMN IF EXISTS source`);
  await knex.raw(`ALTER TABLE submissions DROP COLUMN IF EXISTS routing`);
}
