import { jsonb } from '../../db/jsonb';
import type { SubmissionsRow } from '../../db/tables';
import { validateValues } from '../../domain/form-fields';
import { checkAnswers, isPlainForm, quizScore } from './answers';
import { isQualified } from '../../domain/qualification';
import { transactionWithOutbox } from '../../temporal/outbox';
import type { ServiceDeps } from '../deps';
import { notFound, validationFailed } from '../../core/errors';
import { listEnvelope, type Page } from '../pagination';
import { recordSubmissionEvent } from './events';
import { getForm, type FormRow } from './forms';
import { pageRows, seekPage } from './submission-page';
import { linkContact } from './submit';

const COLUMNS = [
  'id',
  'form_id',
  'contact_id',
  'status',
  'qualified',
  'fields',
  'metadata',
  'submitted_at',
  'score',
  'max_score',
  'routing',
  'created_at',
  'updated_at',
] as const;

/** A submission as the API shows it. */
export type SubmissionRow = Pick<SubmissionsRow, (typeof COLUMNS)[number]>;

export function presentSubmission(s: SubmissionRow) {
  return {
    id: s.id,
    form_id: s.form_id,
    contact_id: s.contact_id,
    fields: s.fields,
    status: s.status,
    qualified: s.qualified,
    submitted_at: s.submitted_at,
    metadata: s.metadata,
    // Quiz results (completed quiz submissions only).
    ...(s.score != null ? { score: s.score, max_score: s.max_score } : {}),
    routing: s.routing,
    created_at: s.created_at,
    updated_at: s.updated_at,
  };
}

export interface SubmissionFilters {
  since?: string;
  until?: string;
  status?: 'completed' | 'partial';
}

export interface ListSubmissionsInput {
  teamId: string;
  formId: string;
  page: Page;
  filters: SubmissionFilters;
}

/**
 * A form's submissions, newest first (`submitted_at DESC, id DESC`, served by an index). The total
 * and deep-page positions come from the per-day counters (see submission-page.ts).
 */
export async function listSubmissions(deps: Pick<ServiceDeps, 'db'>, input: ListSubmissionsInput) {
  const { teamId, formId, page, filters: f } = input;
  await getForm(deps, { teamId, id: formId });
  const seek = await seekPage(deps, { formId, filters: f, offset: page.offset });
  const rows: SubmissionRow[] =
    seek.total > page.offset ? await pageRows(deps, { formId, filters: f, seek, limit: page.perPage, columns: [...COLUMNS] }) : [];
  return listEnvelope(rows.map(presentSubmission), seek.total, page);
}

export async function getSubmission(deps: Pick<ServiceDeps, 'db'>, { teamId, id }: { teamId: string; id: string }): Promise<SubmissionRow> {
  const { db } = deps;
  const row = await db('submissions')
    .where({ id, team_id: teamId })
    .first(...COLUMNS);
  if (!row) throw notFound('Submission');
  return row;
}

export interface UpdateSubmissionInput {
  teamId: string;
  id: string;
  fields: Record<string, unknown>;
}

/**
 * Update answers: `fields` merge key by key over the stored ones; a key set to null is removed.
 * Values are validated like a public submission. Records `submission.updated` (and
 * `submission.qualified` when the change makes a completed submission qualify).
 */
export async function updateSubmission(
  deps: Pick<ServiceDeps, 'db' | 'outbox'>,
  { teamId, id, fields: patch }: UpdateSubmissionInput,
): Promise<SubmissionRow> {
  return transactionWithOutbox(deps.db, deps.outbox, async (trx, enqueue) => {
    const current: SubmissionRow | undefined = await trx('submissions')
      .where({ id, team_id: teamId })
      .forUpdate()
      .first(...COLUMNS);
    if (!current) throw notFound('Submission');
    const form: FormRow = await getForm({ db: trx }, { teamId, id: current.form_id });
    const removed = Object.keys(patch).filter((k) => patch[k] === null);
    const given = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== null));
    const kept = Object.fromEntries(Object.entries(current.fields).filter(([k]) => !removed.includes(k)));
    const complete = current.status === 'completed';
    // A form with steps, logic or scoring checks the answers the way it asks them (answers.ts).
    const { values, issues } = isPlainForm(form)
      ? validateValues(form.fields, given, { mode: 'json', requireAll: complete, previous: kept })
      : checkAnswers(form.fields, given, { mode: 'json', complete, previous: kept });
    for (const k of removed)
      if (!form.fields.some((f) => f.name === k) && !(k in current.fields))
        issues.push({ path: `fields.${k}`, message: 'is not a field of this form' });
    if (issues.length) throw validationFailed(issues.map((i) => ({ ...i, path: `body.${i.path}` })));
    const fields = isPlainForm(form) ? { ...kept, ...values } : values;
    const quiz = current.status === 'completed' ? quizScore(form, fields) : null;
    const qualified = current.status === 'completed' && isQualified(form.settings.qualification, fields);
    const contactId = (await linkContact(trx, { form, values: fields })) ?? current.contact_id;
    const [row] = await trx('submissions')
      .where({ id })
      .update({
        fields: jsonb(fields),
        qualified,
        contact_id: contactId,
        score: quiz?.score ?? null,
        max_score: quiz?.max ?? null,
        updated_at: trx.fn.now(),
      })
      .returning([...COLUMNS]);
    await recordSubmissionEvent(trx, enqueue, { type: 'submission.updated', teamId, form, submission: row });
    if (qualified && !current.qualified)
      await recordSubmissionEvent(trx, enqueue, { type: 'submission.qualified', teamId, form, submission: row });
    return row;
  });
}

/** Delete, recording `submission.deleted` with the submission as it was. */
export async function deleteSubmission(
  deps: Pick<ServiceDeps, 'db' | 'outbox'>,
  { teamId, id }: { teamId: string; id: string },
): Promise<void> {
  await transactionWithOutbox(deps.db, deps.outbox, async (trx, enqueue) => {
    const [row] = await trx('submissions')
      .where({ id, team_id: teamId })
      .delete()
      .returning([...COLUMNS]);
    if (!row) throw notFound('Submission');
    const form = await getForm({ db: trx }, { teamId, id: row.form_id });
    await recordSubmissionEvent(trx, enqueue, { type: 'submission.deleted', teamId, form, submission: row });
  });
}
