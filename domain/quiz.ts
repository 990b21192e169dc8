import type { FieldOption, FieldValue, FormField } from './form-fields';

/**
 * Quiz scoring (pure). A choice option scores its `points`, or 1 when it is marked `correct`
 * without points, else 0. A select or radio field is worth its best option; a multi_select field
 * the sum of its positive options. Only asked fields count (a field hidden by logic neither scores
 * nor adds to the maximum).
 */
export interface QuizScore {
  score: number;
  max: number;
}

export const optionPoints = (o: FieldOption): number => o.points ?? (o.correct ? 1 : 0);

/** True when a field takes part in scoring: a choice field with a scored option. */
export function isScored(f: FormField): boolean {
  return (f.options ?? []).some((o) => o.points !== undefined || o.correct === true);
}

function fieldMax(f: FormField): number {
  const pts = (f.options ?? []).map(optionPoints);
  return f.type === 'multi_select' ? pts.filter((p) => p > 0).reduce((a, b) => a + b, 0) : Math.max(0, ...pts);
}

export function scoreQuiz(fields: FormField[], values: Record<string, FieldValue>, asked?: Set<string>): QuizScore {
  let score = 0;
  let max = 0;
  for (const f of fields) {
    if (!isScored(f) || (asked && !asked.has(f.name))) continue;
    max += fieldMax(f);
    const v = values[f.name];
    const picked = Array.isArray(v) ? v : v === undefined ? [] : [String(v)];
    for (const o of f.options ?? []) if (picked.includes(o.value)) score += optionPoints(o);
  }
  return { score: round(score), max: round(max) };
}

const round = (n: number) => Math.round(n * 1000) / 1000;
