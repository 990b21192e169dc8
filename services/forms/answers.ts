import { requiredIssues, validateValues, type FieldValue, type FormField, type ValueIssue, type ValueMode } from '../../domain/form-fields';
import { activeFieldsOfStep, hasLogicOrSteps, keepActive, resolveForm, stepCount, type Resolution } from '../../domain/form-logic';
import { scoreQuiz, type QuizScore } from '../../domain/quiz';

export interface CheckedAnswers {
  /** The answers to keep: earlier ones merged with the new ones, answers to fields not asked dropped. */
  values: Record<string, FieldValue>;
  issues: ValueIssue[];
  resolution: Resolution;
}

/** True when the plain one-page validation applies (no steps, no rules, not a quiz). */
export function isPlainForm(form: { type: string; fields: FormField[] }): boolean {
  return form.type !== 'quiz' && !hasLogicOrSteps(form.fields);
}

/**
 * Validate answers the way the form asks them: values are checked against their fields, then the
 * form's logic decides which fields are asked (domain/form-logic.ts). Answers to fields that are not
 * asked are dropped; required fields are checked among the asked ones only — all of them for a
 * completed submission, those of `step` for a partial save of one step, none otherwise.
 */
export function checkAnswers(
  fields: FormField[],
  input: Record<string, unknown>,
  opts: { mode: ValueMode; complete: boolean; step?: number; previous?: Record<string, FieldValue>; prefix?: string },
): CheckedAnswers {
  const prefix = opts.prefix ?? 'fields';
  const { values, issues } = validateValues(fields, input, { mode: opts.mode, requireAll: false, prefix });
  if (opts.step !== undefined && opts.step >= stepCount(fields)) {
    issues.push({ path: 'step', message: `is out of range: the form has steps 0-${stepCount(fields) - 1}` });
  }
  const resolution = resolveForm(fields, { ...(opts.previous ?? {}), ...values });
  const kept = keepActive({ ...(opts.previous ?? {}), ...values }, resolution);
  const asked = opts.complete
    ? fields.filter((f) => resolution.active.has(f.name))
    : opts.step !== undefined
      ? activeFieldsOfStep(fields, resolution, opts.step)
      : [];
  issues.push(...requiredIssues(asked, kept, issues, prefix));
  return { values: kept, issues, resolution };
}

/** A quiz's score over the asked fields; null for other forms. */
export function quizScore(
  form: { type: string; fields: FormField[] },
  values: Record<string, FieldValue>,
  r?: Resolution,
): QuizScore | null {
  if (form.type !== 'quiz') return null;
  return scoreQuiz(form.fields, values, (r ?? resolveForm(form.fields, values)).active);
}
