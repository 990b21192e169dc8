/** Comparing two reference expanders' answers for the differential test (test/calendars/differential.test.ts). */
import type { ReferenceAnswer } from '../helpers/ical-reference';

/** Both reject the file, or both read it with the same multiset of intervals in every window. */
export function sameAnswers(a: ReferenceAnswer, b: ReferenceAnswer): boolean {
  if ('error' in a || 'error' in b) return 'error' in a && 'error' in b;
  if (a.windows.length !== b.windows.length) return false;
  const key = (w: Array<[number, number]>) =>
    w
      .map(([s, e]) => `${s},${e}`)
      .sort()
      .join(' ');
  return a.windows.every((w, i) => key(w) === key(b.windows[i]));
}
