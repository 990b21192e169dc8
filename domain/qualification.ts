import type { FieldValue } from './form-fields';

/**
 * Qualification rules (form `settings.qualification`): a completed submission is qualified when
 * `all` (default) or `any` of the rules hold. Pure.
 */
export const QUALIFICATION_OPERATORS = [
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
export type QualificationOperator = (typeof QUALIFICATION_OPERATORS)[number];

export interface QualificationRule {
  field: string;
  operator: QualificationOperator;
  value?: string | number | boolean | Array<string | number>;
}

export interface Qualification {
  match?: 'all' | 'any';
  rules: QualificationRule[];
}

function lower(v: unknown): string {
  return String(v).toLowerCase();
}

/** Whether one rule holds for an answer (shared with the form logic, domain/form-logic.ts). */
export function holds(rule: QualificationRule, v: FieldValue | undefined): boolean {
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

/** True when the values meet the rules. No rules (or no qualification) → false. */
export function isQualified(q: Qualification | null | undefined, values: Record<string, FieldValue>): boolean {
  if (!q || q.rules.length === 0) return false;
  const results = q.rules.map((r) => holds(r, values[r.field]));
  return (q.match ?? 'all') === 'any' ? results.some(Boolean) : results.every(Boolean);
}
