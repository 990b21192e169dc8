import type { Knex } from 'knex';

/**
 * A workflow start carries its user metadata (docs/operators.md): a one-line summary and Markdown
 * details, built where the start is enqueued and passed to Temporal as `staticSummary` and
 * `staticDetails`. Rows written before this migration start without them.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('outbox', (t) => {
    t.text('summary');
    t.text('details');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('outbox', (t) => {
    t.dropColumn('summary');
    t.dropColumn('details');
  });
}
