import type { Knex } from 'knex';

/**
 * Forms, submissions, page views, contact tags.
 * Contacts themselves live in 001_foundation; a submission links to its contact by `contact_id`.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('forms', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.text('title').notNullable();
    t.text('slug').notNullable();
    t.text('description').notNullable().defaultTo('');
    t.text('type').notNullable().defaultTo('standard');
    t.text('status').notNullable().defaultTo('draft');
    // Ordered array of field definitions (position = array index); names are unique (checked on write).
    t.jsonb('fields').notNullable().defaultTo('[]');
    t.jsonb('settings').notNullable().defaultTo('{}');
    t.timestamp('published_at', { useTz: true });
    t.timestamps(true, true);
    t.unique(['team_id', 'slug']);
  });
  await knex.raw(`ALTER TABLE forms ADD CONSTRAINT forms_type_ck CHECK (type IN ('standard','multi_step','quiz'))`);
  await knex.raw(`ALTER TABLE forms ADD CONSTRAINT forms_status_ck CHECK (status IN ('draft','published','archived'))`);
  await knex.raw('CREATE INDEX forms_team_list_idx ON forms (team_id, created_at DESC, id DESC)');
  // The public URL /f/<slug> has no team: a published slug is unique across all teams.
  await knex.raw(`CREATE UNIQUE INDEX forms_published_slug_uq ON forms (slug) WHERE status = 'published'`);

  await knex.schema.createTable('submissions', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.uuid('form_id').notNullable().references('forms.id').onDelete('CASCADE');
    t.uuid('contact_id').references('contacts.id').onDelete('SET NULL');
    t.text('status').notNullable();
    t.boolean('qualified').notNullable().defaultTo(false);
    t.jsonb('fields').notNullable().defaultTo('{}');
    t.jsonb('metadata').notNullable().defaultTo('{}');
    // When the submission was completed (or last saved, while partial). Lists order and filter on it.
    // Millisecond precision, so the ISO strings the API shows round-trip exactly in since/until.
    t.timestamp('submitted_at', { useTz: true }).notNullable().defaultTo(knex.raw(`date_trunc('milliseconds', now())`));
    t.timestamps(true, true);
  });
  await knex.raw(`ALTER TABLE submissions ADD CONSTRAINT submissions_status_ck CHECK (status IN ('completed','partial'))`);
  // List order: submitted_at DESC, id DESC within a form; with and without a status filter.
  await knex.raw('CREATE INDEX submissions_form_list_idx ON submissions (form_id, submitted_at DESC, id DESC)');
  await knex.raw('CREATE INDEX submissions_form_status_list_idx ON submissions (form_id, status, submitted_at DESC, id DESC)');
  await knex.raw('CREATE INDEX submissions_contact_idx ON submissions (contact_id, form_id) WHERE contact_id IS NOT NULL');

  await submissionCounters(knex);

  // One row per served public page (insert-only: no hot counter row).
  await knex.schema.createTable('form_views', (t) => {
    t.bigIncrements('id').primary();
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.uuid('form_id').notNullable().references('forms.id').onDelete('CASCADE');
    t.text('device_type');
    t.text('utm_source');
    t.timestamp('viewed_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('CREATE INDEX form_views_form_idx ON form_views (form_id, viewed_at)');

  await knex.schema.createTable('contact_tags', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.specificType('name', 'citext').notNullable();
    t.timestamps(true, true);
    t.unique(['team_id', 'name']);
  });
  await knex.raw('CREATE INDEX contact_tags_list_idx ON contact_tags (team_id, created_at DESC, id DESC)');

  await knex.schema.createTable('contact_tag_links', (t) => {
    t.uuid('contact_id').notNullable().references('contacts.id').onDelete('CASCADE');
    t.uuid('tag_id').notNullable().references('contact_tags.id').onDelete('CASCADE');
    t.uuid('team_id').notNullable().references('teams.id').onDelete('CASCADE');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['contact_id', 'tag_id']);
    t.index(['tag_id']);
  });
  await knex.raw('CREATE INDEX contacts_team_list_idx ON contacts (team_id, created_at DESC, id DESC) WHERE deleted_at IS NULL');
}

/**
 * Per-form, per-status, per-UTC-day submission counts kept by statement-level triggers (one
 * grouped upsert per statement). The shard is the backend's pid modulo 16: concurrent writers are
 * on different connections, so they (almost) never wait for each other's row lock until commit —
 * a random shard out of 4 made every 5th concurrent submission queue behind another's commit. The submissions list reads its total
 * from them and uses them to seek deep pages without scanning a million index entries.
 * No foreign key: a form's cascade delete would otherwise fail in the trigger; deleteForm removes them.
 */
async function submissionCounters(knex: Knex): Promise<void> {
  await knex.raw(`CREATE TABLE submission_counts (
    form_id uuid NOT NULL, status text NOT NULL, day date NOT NULL, shard smallint NOT NULL, n bigint NOT NULL,
    PRIMARY KEY (form_id, status, day, shard))`);
  await knex.raw(`CREATE FUNCTION submission_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO submission_counts (form_id, status, day, shard, n)
      SELECT form_id, status, (submitted_at AT TIME ZONE 'UTC')::date, (pg_backend_pid() % 16)::smallint, count(*)
        FROM new_rows GROUP BY 1, 2, 3
      ON CONFLICT (form_id, status, day, shard) DO UPDATE SET n = submission_counts.n + EXCLUDED.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO submission_counts (form_id, status, day, shard, n)
      SELECT form_id, status, (submitted_at AT TIME ZONE 'UTC')::date, (pg_backend_pid() % 16)::smallint, -count(*)
        FROM old_rows GROUP BY 1, 2, 3
      ON CONFLICT (form_id, status, day, shard) DO UPDATE SET n = submission_counts.n + EXCLUDED.n;
  ELSE
    INSERT INTO submission_counts (form_id, status, day, shard, n)
      SELECT form_id, status, day, (pg_backend_pid() % 16)::smallint, sum(d)
        FROM (SELECT form_id, status, (submitted_at AT TIME ZONE 'UTC')::date AS day, 1 AS d FROM new_rows
              UNION ALL
              SELECT form_id, status, (submitted_at AT TIME ZONE 'UTC')::date, -1 FROM old_rows) x
       GROUP BY form_id, status, day HAVING sum(d) <> 0
      ON CONFLICT (form_id, status, day, shard) DO UPDATE SET n = submission_counts.n + EXCLUDED.n;
  END IF;
  RETURN NULL;
END $$`);
  await knex.raw(`CREATE TRIGGER submissions_count_ins AFTER INSERT ON submissions REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION submission_counts_apply()`);
  await knex.raw(`CREATE TRIGGER submissions_count_del AFTER DELETE ON submissions REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION submission_counts_apply()`);
  await knex.raw(`CREATE TRIGGER submissions_count_upd AFTER UPDATE ON submissions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION submission_counts_apply()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE IF EXISTS submission_counts');
  await knex.raw('DROP INDEX IF EXISTS contacts_team_list_idx');
  for (const t of ['contact_tag_links', 'contact_tags', 'form_views', 'submissions', 'forms']) {
    await knex.schema.dropTableIfExists(t);
  }
  await knex.raw('DROP FUNCTION IF EXISTS submission_counts_apply()');
}
