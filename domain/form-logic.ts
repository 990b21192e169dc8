import type { FieldValue, FormField, LogicCondition, ValueIssue } from './form-fields';
import { holds } from './conditions';

/**
 * Steps and conditional logic of a form (pure; used by the public page, the submission API and the
 * form editor's validation alike).
 *
 * Steps: a field's `page` (0-based) names the step it is shown on; fields of one step are
 * contiguous and steps are numbered without gaps. `hidden` fields belong to no step: they are
 * always answered (from the URL) and usable by every rule.
 *
 * A rule sits on a field: `{when: {field, operator, value}, action, to?}`.
 * - `show`: the field is shown only when one of its `show` rules holds;
 * - `hide`: the field is hidden when one of its `hide` rules holds;
 * - `jump`: after this field's step, go to step `to` (forward only);
 * - `end`: after this field's step, the form ends.
 * Jump and end rules are tried in field order on the step's shown fields; the first that holds
 * wins. A hidden field's answer is dropped and does not count for later rules.
 */
export { LOGIC_ACTIONS, LOGIC_OPERATORS, type LogicAction, type LogicCondition, type LogicOperator, type LogicRule } from './form-fields';

export const MAX_STEPS = 50;

const NUMERIC = new Set(['number', 'rating']);
const TEXTUAL = new Set(['text', 'textarea', 'email', 'phone', 'url', 'hidden', 'multi_select']);

/** The step of a field; hidden fields have none (-1). */
export const stepOf = (f: FormField): number => (f.type === 'hidden' ? -1 : (f.page ?? 0));

export function stepCount(fields: FormField[]): number {
  return Math.max(0, ...fields.map(stepOf)) + 1;
}

/** True when the form has more than one step or any rule (the plain one-page path applies otherwise). */
export function hasLogicOrSteps(fields: FormField[]): boolean {
  return fields.some((f) => stepOf(f) > 0 || (f.logic?.length ?? 0) > 0);
}

function operatorProblem(target: FormField, c: LogicCondition): string | null {
  const op = c.operator;
  if (op === 'is_set' || op === 'is_not_set') return null;
  if (c.value === undefined) return `needs a value for ${op}`;
  if (op === 'gt' || op === 'gte' || op === 'lt' || op === 'lte') {
    if (!NUMERIC.has(target.type)) return `${op} compares numbers; "${target.name}" is a ${target.type} field`;
    if (typeof c.value !== 'number') return `${op} needs a number value`;
    return null;
  }
  if (op === 'contains' || op === 'not_contains') {
    return TEXTUAL.has(target.type) ? null : `${op} needs a text or multi_select field; "${target.name}" is a ${target.type} field`;
  }
  if (target.type === 'checkbox' && typeof c.value !== 'boolean') return 'a checkbox compares with true or false';
  if (target.options && !target.options.some((o) => o.value === String(c.value)))
    return `"${String(c.value)}" is not an option of "${target.name}"`;
  return null;
}

/**
 * Structural checks for a form's steps and rules, as issues with paths `fields.<i>.page` and
 * `fields.<i>.logic.<j>.…`. `steps` is false for a standard form (one page only).
 */
export function validateFormLogic(fields: FormField[], steps: boolean): ValueIssue[] {
  const issues: ValueIssue[] = [];
  const index = new Map(fields.map((f, i) => [f.name, i]));
  let prev = -1;
  fields.forEach((f, i) => {
    if (f.type === 'hidden') return;
    const page = f.page ?? 0;
    if (!steps && page > 0) issues.push({ path: `fields.${i}.page`, message: 'steps need a multi_step or quiz form' });
    else if (page >= MAX_STEPS)
      issues.push({ path: `fields.${i}.page`, message: `is out of range: at most ${MAX_STEPS} steps (0-${MAX_STEPS - 1})` });
    else if (prev < 0 ? page !== 0 : page !== prev && page !== prev + 1) {
      const allowed = prev < 0 ? 'the first step is 0' : `the previous field is on step ${prev}, so this one is on ${prev} or ${prev + 1}`;
      issues.push({ path: `fields.${i}.page`, message: `is out of range: ${allowed} (steps are contiguous, without gaps)` });
    }
    prev = Math.max(prev, page);
  });
  const count = stepCount(fields);
  fields.forEach((f, i) => {
    (f.logic ?? []).forEach((r, j) => {
      const at = `fields.${i}.logic.${j}`;
      const ti = index.get(r.when.field);
      if (ti === undefined) return issues.push({ path: `${at}.when.field`, message: `refers to an unknown field "${r.when.field}"` });
      const target = fields[ti];
      if (ti > i) {
        issues.push({
          path: `${at}.when.field`,
          message: `refers to "${target.name}", a later field: rules use answers given before them (a forward reference could loop)`,
        });
        return;
      }
      const p = operatorProblem(target, r.when);
      if (p) issues.push({ path: `${at}.when.operator`, message: p });
      if (r.action === 'show' || r.action === 'hide') {
        if (ti === i) issues.push({ path: `${at}.when.field`, message: 'a field cannot be shown or hidden by its own answer' });
        else if (f.type !== 'hidden' && stepOf(target) >= stepOf(f))
          issues.push({
            path: `${at}.when.field`,
            message: `"${target.name}" is on the same step: show and hide rules use answers of earlier steps or hidden fields`,
          });
        if (r.to !== undefined) issues.push({ path: `${at}.to`, message: 'is only for jump rules' });
        return;
      }
      if (f.type === 'hidden')
        return issues.push({ path: `${at}.action`, message: 'jump and end rules belong to a field shown on a step' });
      if (r.action === 'end') {
        if (r.to !== undefined) issues.push({ path: `${at}.to`, message: 'is only for jump rules' });
        return;
      }
      const own = stepOf(f);
      if (r.to === undefined) issues.push({ path: `${at}.to`, message: 'is required for a jump rule' });
      else if (r.to <= own) issues.push({ path: `${at}.to`, message: `must be a later step than ${own}: a jump back would loop` });
      else if (r.to >= count) issues.push({ path: `${at}.to`, message: `is out of range: the form has steps 0-${count - 1}` });
    });
  });
  return issues;
}

function conditionHolds(c: LogicCondition, known: Record<string, FieldValue>): boolean {
  return holds({ field: c.field, operator: c.operator, value: c.value }, known[c.field]);
}

function shown(f: FormField, known: Record<string, FieldValue>): boolean {
  const rules = f.logic ?? [];
  const shows = rules.filter((r) => r.action === 'show');
  if (shows.length && !shows.some((r) => conditionHolds(r.when, known))) return false;
  return !rules.some((r) => r.action === 'hide' && conditionHolds(r.when, known));
}

export interface Resolution {
  /** The steps a visitor with these answers goes through, in order. */
  path: number[];
  /** True when an `end` rule stopped the form early. */
  ended: boolean;
  /** Fields that are asked (shown on a step of the path, or hidden fields). */
  active: Set<string>;
}

/** Walk the form with the given answers: which steps are visited and which fields are asked. */
export function resolveForm(fields: FormField[], values: Record<string, FieldValue>): Resolution {
  const known: Record<string, FieldValue> = {};
  const active = new Set<string>();
  for (const f of fields) {
    if (f.type !== 'hidden' || !shown(f, known)) continue;
    active.add(f.name);
    if (values[f.name] !== undefined) known[f.name] = values[f.name];
  }
  const count = stepCount(fields);
  const path: number[] = [];
  let ended = false;
  for (let step = 0; step < count;) {
    path.push(step);
    const onStep = fields.filter((f) => f.type !== 'hidden' && stepOf(f) === step && shown(f, known));
    for (const f of onStep) {
      active.add(f.name);
      if (values[f.name] !== undefined) known[f.name] = values[f.name];
    }
    let next = step + 1;
    search: for (const f of onStep) {
      for (const r of f.logic ?? []) {
        if ((r.action === 'jump' || r.action === 'end') && conditionHolds(r.when, known)) {
          if (r.action === 'end') {
            ended = true;
            next = count;
          } else next = Math.max(step + 1, r.to ?? step + 1);
          break search;
        }
      }
    }
    step = next;
  }
  return { path, ended, active };
}

/** The step after `current` on the path, or null when the form ends after it. */
export function nextStep(r: Resolution, current: number): number | null {
  return r.path.find((s) => s > current) ?? null;
}

/** The step before `current` on the path, or null on the first step. */
export function previousStep(r: Resolution, current: number): number | null {
  const before = r.path.filter((s) => s < current);
  return before.length ? before[before.length - 1] : null;
}

/** The asked fields of one step (hidden fields excluded). */
export function activeFieldsOfStep(fields: FormField[], r: Resolution, step: number): FormField[] {
  return fields.filter((f) => f.type !== 'hidden' && stepOf(f) === step && r.active.has(f.name));
}

/** Only the answers to asked fields. */
export function keepActive(values: Record<string, FieldValue>, r: Resolution): Record<string, FieldValue> {
  return Object.fromEntries(Object.entries(values).filter(([k]) => r.active.has(k)));
}
