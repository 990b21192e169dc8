import type { ServiceDeps } from '../deps';
import type { FieldValue, FormField } from '../../domain/form-fields';
import { nextStep, previousStep, resolveForm, stepCount } from '../../domain/form-logic';
import { zUuid } from '../../core/validate';
import type { FormRow } from './forms';

/**
 * What the public page shows: for a form with steps, the current step, whether there is a step
 * before and after it on the visitor's path, and the answers saved so far (resumed with the
 * submission id the page carries as its resume token). For a one-page form, `count` is 1.
 */
export interface PageView {
  step: number;
  count: number;
  /** The step before this one on the path (null on the first step). */
  back: number | null;
  /** True when no step follows with the answers known so far (the button says Submit). */
  last: boolean;
  submissionId: string | null;
  values: Record<string, FieldValue>;
  /** Fields the logic asks with the answers known so far; the others are rendered disabled and hidden. */
  asked: Set<string>;
}

/** Hidden fields take their value from the query string of the same name, else their default. */
export function hiddenValues(fields: FormField[], query: Record<string, string>): Record<string, FieldValue> {
  const out: Record<string, FieldValue> = {};
  for (const f of fields) {
    if (f.type !== 'hidden') continue;
    const v = query[f.name] ?? f.default_value;
    if (v) out[f.name] = v;
  }
  return out;
}

export function buildView(form: FormRow, values: Record<string, FieldValue>, wanted: number, submissionId: string | null): PageView {
  const count = stepCount(form.fields);
  const r = resolveForm(form.fields, values);
  // A step that is not on the visitor's path (a jump skipped it, or a made-up number) falls back to
  // the last step on the path before it.
  const step = r.path.includes(wanted) ? wanted : ([...r.path].reverse().find((s) => s < wanted) ?? 0);
  return { step, count, back: previousStep(r, step), last: nextStep(r, step) === null, submissionId, values, asked: r.active };
}

/** The page's view from `?resume=<submission id>&step=<n>` (a partial submission of this form), or a fresh start. */
export async function pageView(
  deps: Pick<ServiceDeps, 'db'>,
  { form, query }: { form: FormRow; query: Record<string, string> },
): Promise<PageView> {
  const { db } = deps;
  const hidden = hiddenValues(form.fields, query);
  const wanted = Number.parseInt(query.step ?? '0', 10);
  const step = Number.isFinite(wanted) && wanted >= 0 ? wanted : 0;
  if (query.resume && zUuid.safeParse(query.resume).success) {
    const row = await db('submissions').where({ id: query.resume, form_id: form.id, status: 'partial' }).first('id', 'fields');
    if (row) return buildView(form, { ...hidden, ...(row.fields as Record<string, FieldValue>) }, step, row.id as string);
  }
  return buildView(form, hidden, 0, null);
}

/** Hidden fields the body does not carry are filled from the POST's query string (the page posts to its own query). */
export function withHiddenFromQuery(
  fields: FormField[],
  given: Record<string, unknown> | undefined,
  query: Record<string, string>,
): Record<string, unknown> | undefined {
  let out = given;
  for (const f of fields) {
    if (f.type !== 'hidden' || (given && f.name in given) || !query[f.name]) continue;
    out = { ...(out ?? {}), [f.name]: query[f.name] };
  }
  return out;
}
