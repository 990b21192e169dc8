import { jsonb } from '../../db/jsonb';
import { randomUUID } from 'node:crypto';
import type { Executor } from '../../db/knex';
import { contactEmail, validateValues, type FieldValue, type FormField, type ValueMode } from '../../domain/form-fields';
import { isQualified } from '../../domain/qualification';
import { transactionWithOutbox, type Enqueue } from '../../temporal/outbox';
import type { ServiceDeps } from '../deps';
import { conflict, notFound, validationFailed } from '../../core/errors';
import { upsertContactByEmail, type ContactInput } from '../contact-rows/upsert';
import type { EventType } from '../events/record';
import { recordSubmissionEvent, type SubmissionForEvent } from './events';
import { checkAnswers, isPlainForm, quizScore } from './answers';
import { nextStep, previousStep } from '../../domain/form-logic';
import type { QuizScore } from '../../domain/quiz';
import type { FormRow } from './forms';
import { enqueueSubmissionNotification, notifiesOnSubmission } from './notify';
import { insertSubmission, type NewSubmission } from './submission-insert';
import type { PublicSubmissionInput } from './schemas';
import type { SubmissionMetadata } from './tracking';
import type { RoutingRecord } from '../../domain/routing';
import { receiptRouting, resolveRouting } from './routing';
import { enqueueUnbookedFollowUp } from './unbooked';

export interface SubmitResult {
  id: string;
  status: 'completed' | 'partial';
  /** false when an earlier partial submission was continued (answers 200, not 201). */
  created: boolean;
  /** true when the honeypot caught a bot: nothing was stored. */
  dropped: boolean;
  /** With `nav`: the step to show next (null once the form is completed). */
  step?: number | null;
  /** With `nav`, on a partial save: whether `step` is the last one, and the fields the logic does not ask. */
  last?: boolean;
  hidden_fields?: string[];
  /** Completed quiz submissions. */
  score?: number;
  max_score?: number;
  /** Completed, routed submissions: the target (with the prefill token for a booking step). */
  routing?: Awaited<ReturnType<typeof receiptRouting>>;
}

/** Contact fields taken from well-known field names, besides the email. */
function contactExtras(fields: FormField[], values: Record<string, FieldValue>) {
  const str = (name: string) => (typeof values[name] === 'string' ? (values[name] as string).slice(0, 200) : undefined);
  const phoneField = fields.find((f) => f.type === 'phone' && typeof values[f.name] === 'string');
  return {
    first_name: str('first_name'),
    last_name: str('last_name'),
    phone: phoneField ? (values[phoneField.name] as string) : undefined,
  };
}

function contactInput(form: FormRow, values: Record<string, FieldValue>): ContactInput | null {
  const email = contactEmail(form.fields, values);
  return email ? { email, ...contactExtras(form.fields, values) } : null;
}

/** Link the submission to the team's contact with its email (created or updated). */
export async function linkContact(
  trx: Executor,
  { form, values }: { form: FormRow; values: Record<string, FieldValue> },
): Promise<string | null> {
  const input = contactInput(form, values);
  return input ? (await upsertContactByEmail(trx, { teamId: form.team_id, contact: input })).id : null;
}

/**
 * On completion: `submission.created`, `submission.qualified` when the rules hold,
 * `submission.routed` and the unbooked follow-up when routed, and the notification email.
 */
async function completionEvents(
  trx: Executor,
  enqueue: Enqueue,
  form: FormRow,
  row: SubmissionForEvent & { qualified: boolean; routing: RoutingRecord | null },
): Promise<void> {
  await recordSubmissionEvent(trx, enqueue, { type: 'submission.created', teamId: form.team_id, form, submission: row });
  if (row.qualified)
    await recordSubmissionEvent(trx, enqueue, { type: 'submission.qualified', teamId: form.team_id, form, submission: row });
  if (row.routing) {
    await recordSubmissionEvent(trx, enqueue, { type: 'submission.routed', teamId: form.team_id, form, submission: row });
    await enqueueUnbookedFollowUp(enqueue, { form, submissionId: row.id, routing: row.routing });
  }
  await enqueueSubmissionNotification(enqueue, { form, submissionId: row.id });
}

/** A form that needs the outbox on completion: it emails its submissions, or follows up routed visitors who do not book. */
function needsOutbox(form: FormRow, routing: RoutingRecord | null): boolean {
  return notifiesOnSubmission(form) || Boolean(routing?.target === 'event_type' && form.settings.routing?.unbooked);
}

export interface SubmitPublicInput {
  form: FormRow;
  /** The request body. */
  values: PublicSubmissionInput;
  metadata: SubmissionMetadata;
  mode: ValueMode;
}

/**
 * A public submission: validate the values against the form's fields, then in one transaction
 * write the submission, its contact and its events. A rejected submission writes nothing.
 */
export async function submitPublic(deps: Pick<ServiceDeps, 'db' | 'outbox' | 'config'>, input: SubmitPublicInput): Promise<SubmitResult> {
  const { form, values: body, metadata, mode } = input;
  if (body.website_url) return { id: randomUUID(), status: body.status ?? 'completed', created: true, dropped: true };

  let previous: { id: string; fields: Record<string, FieldValue>; metadata: SubmissionMetadata } | undefined;
  if (body.submission_id) {
    previous = await deps
      .db('submissions')
      .where({ id: body.submission_id, form_id: form.id })
      .first('id', 'status', 'fields', 'metadata')
      .then((r) => {
        if (!r) throw notFound('Submission');
        if (r.status !== 'partial') throw conflict('This submission is already completed', 'invalid_transition');
        return r;
      });
  }
  const step = body.nav ? (body.step ?? 0) : body.step;
  let status = body.nav ? 'partial' : (body.status ?? 'completed');
  let merged: Record<string, FieldValue>;
  let nextShown: number | null | undefined;
  let score: QuizScore | null = null;
  let navInfo: { last: boolean; hidden_fields: string[] } | undefined;
  if (isPlainForm(form) && step === undefined) {
    const { values, issues } = validateValues(form.fields, body.fields ?? {}, {
      mode,
      requireAll: status === 'completed',
      previous: previous?.fields,
    });
    if (issues.length) throw validationFailed(issues, 'Some answers need attention');
    merged = { ...(previous?.fields ?? {}), ...values };
  } else {
    // Steps and logic: answers to fields the logic does not ask are dropped, required fields are
    // checked among the asked ones (of this step, or all of them on completion).
    let checked = checkAnswers(form.fields, body.fields ?? {}, {
      mode,
      complete: status === 'completed',
      step: body.nav === 'back' ? undefined : step,
      previous: previous?.fields,
    });
    if (body.nav === 'next' && !checked.issues.length && nextStep(checked.resolution, step ?? 0) === null) {
      status = 'completed';
      checked = checkAnswers(form.fields, body.fields ?? {}, { mode, complete: true, step, previous: previous?.fields });
    }
    if (checked.issues.length)
      throw validationFailed(
        checked.issues.map((i) => (i.path === 'step' ? { ...i, path: 'body.step' } : i)),
        'Some answers need attention',
      );
    merged = checked.values;
    if (body.nav === 'next') nextShown = status === 'completed' ? null : nextStep(checked.resolution, step ?? 0);
    if (body.nav === 'back') nextShown = previousStep(checked.resolution, step ?? 0) ?? 0;
    if (nextShown != null) {
      const r = checked.resolution;
      navInfo = {
        last: nextStep(r, nextShown) === null,
        hidden_fields: form.fields.filter((f) => !r.active.has(f.name)).map((f) => f.name),
      };
    }
    if (status === 'completed') score = quizScore(form, merged, checked.resolution);
  }
  const extra = {
    ...(nextShown !== undefined ? { step: nextShown } : {}),
    ...(navInfo ?? {}),
    ...(score ? { score: score.score, max_score: score.max } : {}),
  };
  const qualified = status === 'completed' && isQualified(form.settings.qualification, merged);
  const routing = status === 'completed' ? await resolveRouting(deps, { form, values: merged, qualified }) : null;
  const withRouting = async (r: SubmitResult): Promise<SubmitResult> =>
    routing
      ? { ...r, routing: await receiptRouting(deps, { record: routing, submissionId: r.id, fields: form.fields, values: merged }) }
      : r;

  if (!previous) {
    const row: NewSubmission = { status, qualified, fields: merged, metadata, contact: contactInput(form, merged), score, routing };
    // Common path: one autocommit statement writes the contact, the submission and its events
    // (atomic without BEGIN/COMMIT). It writes nothing when the team has webhook subscriptions to
    // fan out to (or the form was unpublished meanwhile): then the transaction below does it. A
    // form that emails its submissions needs the outbox, so it takes the transaction at once.
    const events: EventType[] =
      status === 'completed'
        ? [
            'submission.created',
            ...(qualified ? ['submission.qualified' as const] : []),
            ...(routing ? ['submission.routed' as const] : []),
          ]
        : [];
    const done = status === 'completed' && needsOutbox(form, routing) ? null : await insertSubmission(deps.db, { form, row, events });
    if (done) return withRouting({ id: done.id, status, created: true, dropped: false, ...extra });
    return withRouting(
      await transactionWithOutbox(deps.db, deps.outbox, async (trx, enqueue) => {
        const inserted = await insertSubmission(trx, { form, row });
        if (!inserted) throw notFound('Form');
        if (status === 'completed') await completionEvents(trx, enqueue, form, inserted);
        return { id: inserted.id, status, created: true, dropped: false, ...extra };
      }),
    );
  }

  // Continuing a partial submission: update it (and its contact) and record the events.
  const prev = previous;
  const continued = await transactionWithOutbox(deps.db, deps.outbox, async (trx, enqueue) => {
    const contactId = await linkContact(trx, { form, values: merged });
    const meta = { ...prev.metadata };
    for (const [k, v] of Object.entries(metadata)) if (meta[k as keyof SubmissionMetadata] == null) meta[k as keyof SubmissionMetadata] = v;
    const [row] = await trx('submissions')
      .where({ id: prev.id, status: 'partial' })
      .update({
        status,
        fields: jsonb(merged),
        metadata: jsonb(meta),
        qualified,
        score: score?.score ?? null,
        max_score: score?.max ?? null,
        contact_id: contactId,
        routing: routing ? jsonb(routing) : null,
        submitted_at: trx.raw(`date_trunc('milliseconds', now())`),
        updated_at: trx.fn.now(),
      })
      .returning(['id', 'fields', 'metadata', 'submitted_at', 'qualified', 'score', 'max_score', 'routing']);
    if (!row) throw conflict('This submission is already completed', 'invalid_transition');
    if (status === 'completed') await completionEvents(trx, enqueue, form, row);
    return { id: row.id, status, created: false, dropped: false, ...extra };
  });
  return withRouting(continued);
}
