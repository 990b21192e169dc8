/**
 * Reading a calendar never throws on any input (issue 42): property-based, over the real-world corpus
 * of the differential test (test/calendars/corpus/README.md) mangled by fast-check (lines dropped,
 * doubled, swapped, cut, garbled, case flipped, folds lost, junk appended). The only acceptable outcomes
 * are a result or a CalendarParseError.
 */
import fc from 'fast-check';
import { CalendarParseError, readBusy } from '../../domain/calendars/expand';
import { calendarCorpus } from '../helpers/ical-reference';

const files = calendarCorpus().map((f) => ({ name: f.name, text: f.text, from: f.windows[0][0] }));

type Edit = (lines: string[]) => string[];

const at = (n: number, lines: string[]) => (lines.length ? n % lines.length : 0);
const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.nat().map(
    (n): Edit =>
      (l) =>
        l.filter((_, i) => i !== at(n, l)),
  ),
  fc.nat().map((n): Edit => (l) => [...l.slice(0, at(n, l) + 1), ...l.slice(at(n, l))]),
  fc.tuple(fc.nat(), fc.nat()).map(([a, b]): Edit => (l) => {
    const out = [...l];
    if (!l.length) return out; // swapping in an empty list would write an undefined line
    [out[at(a, l)], out[at(b, l)]] = [out[at(b, l)], out[at(a, l)]];
    return out;
  }),
  fc.tuple(fc.nat(), fc.nat()).map(
    ([n, k]): Edit =>
      (l) =>
        l.map((s, i) => (i === at(n, l) ? s.slice(0, k % (s.length + 1)) : s)),
  ),
  fc.tuple(fc.nat(), fc.string({ maxLength: 12 })).map(
    ([n, junk]): Edit =>
      (l) =>
        l.map((s, i) => (i === at(n, l) ? s + junk : s)),
  ),
  fc.nat().map(
    (n): Edit =>
      (l) =>
        l.map((s, i) => (i === at(n, l) ? s.toLowerCase() : s)),
  ),
  fc.nat().map(
    (n): Edit =>
      (l) =>
        l.map((s, i) => (i === at(n, l) ? s.replace(/^[ \t]/, '') : s)),
  ),
  fc.string({ maxLength: 40 }).map((junk): Edit => (l) => [...l, junk]),
  fc.nat().map(
    (n): Edit =>
      (l) =>
        l.slice(0, at(n, l)),
  ),
);

it('readBusy gives a result or a CalendarParseError on every mangled corpus file', () => {
  expect(files.length).toBeGreaterThanOrEqual(100);
  fc.assert(
    fc.property(fc.constantFrom(...files), fc.array(edit, { minLength: 1, maxLength: 6 }), (file, edits) => {
      const text = edits.reduce((lines, e) => e(lines), file.text.split(/\r?\n/)).join('\r\n');
      try {
        const read = readBusy(text, { from: file.from, to: file.from + 366 * 86_400_000, hostEmails: [], hostZone: 'America/New_York' });
        return Array.isArray(read.busy) && Array.isArray(read.skipped);
      } catch (e) {
        if (e instanceof CalendarParseError) return true;
        throw new Error(`${file.name}: ${(e as Error)?.stack ?? String(e)}`);
      }
    }),
    { numRuns: 600 },
  );
});
