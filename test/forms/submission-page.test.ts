import { jsonb } from '../../db/jsonb';
import fc from 'fast-check';
import { makeForm } from '../fixtures/forms';
import { pageRows, seekPage, type WindowFilters } from '../../services/forms/submission-page';
import { useApiWorld } from '../helpers/world';

/**
 * The counter-based total and deep-page seek must give exactly what a plain COUNT and
 * OFFSET give, for any window, status and page, after inserts, status changes and deletes.
 */
let formId: string;
const T0 = Date.parse('2025-03-10T00:00:00Z');
const HOUR = 3_600_000;

const w = useApiWorld({ app: false });
beforeAll(async () => {
  const { team } = w;
  const form = await makeForm(w.tdb.db, team.teamId);
  formId = form.id;
  // 400 rows over ~12 days, several per hour, some at identical times (ties broken by id).
  await w.tdb.db.raw(
    `INSERT INTO submissions (team_id, form_id, status, fields, submitted_at)
     SELECT ?, ?, CASE WHEN g % 3 = 0 THEN 'partial' ELSE 'completed' END, '{}', to_timestamp(? / 1000.0) + ((g / 2) * interval '43 minutes')
       FROM generate_series(1, 400) g`,
    [team.teamId, formId, T0],
  );
  // Single-row statements too, then completions (moves status and day) and deletes.
  for (let i = 0; i < 20; i++) {
    await w.tdb
      .db('submissions')
      .insert({ team_id: team.teamId, form_id: formId, status: 'partial', fields: jsonb({}), submitted_at: new Date(T0 + i * 7 * HOUR) });
  }
  const partial = await w.tdb.db('submissions').where({ form_id: formId, status: 'partial' }).orderBy('id').limit(30).pluck('id');
  await w.tdb
    .db('submissions')
    .whereIn('id', partial.slice(0, 15))
    .update({ status: 'completed', submitted_at: w.tdb.db.raw(`submitted_at + interval '30 hours'`) });
  await w.tdb.db('submissions').whereIn('id', partial.slice(15)).delete();
  await w.tdb.db('submissions').where({ form_id: formId }).whereRaw(`extract(hour from submitted_at) = 5`).delete();
});

async function naive(f: WindowFilters, offset: number, limit: number) {
  const q = w.tdb.db('submissions').where({ form_id: formId });
  if (f.status) q.where({ status: f.status });
  if (f.since) q.where('submitted_at', '>', f.since);
  if (f.until) q.where('submitted_at', '<', f.until);
  const total = Number((await q.clone().count({ n: '*' }).first())?.n);
  const ids = await q
    .orderBy([
      { column: 'submitted_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(limit)
    .offset(offset)
    .pluck('id');
  return { total, ids };
}

const bound = fc.option(
  fc.integer({ min: -2 * 24, max: 16 * 24 * 60 }).map((m) => new Date(T0 + m * 60_000).toISOString()),
  { nil: undefined },
);

it('matches COUNT and OFFSET for random windows, statuses and pages', async () => {
  await fc.assert(
    fc.asyncProperty(
      bound,
      bound,
      fc.constantFrom(undefined, 'completed' as const, 'partial' as const),
      fc.integer({ min: 0, max: 460 }),
      fc.integer({ min: 1, max: 25 }),
      async (since, until, status, offset, limit) => {
        const f: WindowFilters = { since, until, status };
        const want = await naive(f, offset, limit);
        const seek = await seekPage({ db: w.tdb.db }, { formId: formId, filters: f, offset: offset });
        expect(seek.total).toBe(want.total);
        const got =
          seek.total > offset
            ? await pageRows({ db: w.tdb.db }, { formId: formId, filters: f, seek: seek, limit: limit, columns: ['id'] }).then((r) =>
                r.map((x: { id: string }) => x.id),
              )
            : [];
        expect(got).toEqual(want.ids);
      },
    ),
    { numRuns: 150 },
  );
});
