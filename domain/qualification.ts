import { CONDITION_OPERATORS, holds, type Condition, type ConditionOperator, type FieldValue } from './conditions';

/**
 * Qualification rules (form `settings.qualification`): a completed submission is qualified when
 * `all` (default) or `any` of the rules hold. Pure.
 */
/** Qualification takes every operator of the shared vocabulary (domain/conditions.ts). */
export const QUALIFICATION_OPERATORS = CONDITION_OPERATORS;
export type QualificationOperator = ConditionOperator;
export type QualificationRule = Condition;

export interface Qualification {
  match?: 'all' | 'any';
  rules: QualificationRule[];
}

/** True when the values meet the rules. No rules (or no qualification) → false. */
export function isQualified(q: Qualification | null | undefined, values: Record<string, FieldValue>): boolean {
  if (!q || q.rules.length === 0) return false;
  const results = q.rules.map((r) => holds(r, values[r.field]));
  return (q.match ?? 'all') === 'any' ? results.some(Boolean) : results.every(Boolean);
}
