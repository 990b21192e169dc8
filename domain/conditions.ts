/**
 * The one vocabulary of conditions over a form's answers, shared by the form logic
 * (domain/form-logic.ts: show, hide, jump, end) and qualification (domain/qualification.ts). Pure.
 */

/** An answer as the form holds it. */
export type FieldValue = string | number | boolean | string[];

export const CONDITION_OPERATORS = [
  'equals',
  'not_equals',
  'contains',
  'not_contains',
  'in',
  'gt',
  'gte',
  'lt',
  'lte',
  'is_set',
  'is_not_set',
] as const;
export type ConditionOperator = (typeof CONDITION_OPERATORS)[number];

/** A condition on one field's answer. `in` takes a list; the others a single value (or none). */
export interface Condition {
  field: string;
  operator: ConditionOperator;
  value?: string | number | boolean | Array<string | number>;
}

function lower(v: unknown): string {
  return String(v).toLowerCase();
}

/** Whether a condition holds for an answer (`undefined`: not answered). */
export function holds(rule: Condition, v: FieldValue | undefined): boolean {
  const set = v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0);
  switch (rule.operator) {
    case 'is_set':
      return set;
    case 'is_not_set':
      return !set;
    case 'equals':
      if (!set) return false;
      return Array.isArray(v) ? v.map(lower).includes(lower(rule.value)) : lower(v) === lower(rule.value);
    case 'not_equals':
      return !holds({ ...rule, operator: 'equals' }, v);
    case 'contains':
      if (!set) return false;
      return Array.isArray(v) ? v.map(lower).includes(lower(rule.value)) : lower(v).includes(lower(rule.value));
    case 'not_contains':
      return !holds({ ...rule, operator: 'contains' }, v);
    case 'in': {
      if (!set || !Array.isArray(rule.value)) return false;
      const allowed = rule.value.map(lower);
      return Array.isArray(v) ? v.some((x) => allowed.includes(lower(x))) : allowed.includes(lower(v));
    }
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      const a = typeof v === 'number' ? v : Number(v);
      const b = Number(rule.value);
      if (!set || Array.isArray(v) || !Number.isFinite(a) || !Number.isFinite(b)) return false;
      return rule.operator === 'gt' ? a > b : rule.operator === 'gte' ? a >= b : rule.operator === 'lt' ? a < b : a <= b;
    }
  }
}
