/**
 * Differential test: busy time from domain/calendars/expand.ts equals busy time from at least one of two
 * independent expanders, each with its own parser: Python's recurring-ical-events with icalendar
 * (test/calendars/reference/busy.py) and Python's `ical` (busy_ical.py), on a corpus of real-world .ics
 * files (test/calendars/corpus/README.md), as a multiset of intervals per file and window; each file in
 * its own years and again 40 years later (unbounded rules fast-forwarded). The files where we differ
 * from both, and why, are the table "Where the reference readers differ" in docs/calendars.md; a listed
 * file that agrees with one again fails too, so the table stays true. The files where the two references
 * disagree with each other are reported apart (printed with the agreement figures, see docs/calendars.md).
 */
import fs from 'node:fs';
import path from 'node:path';
import { readBusy } from '../../domain/calendars/expand';
import { calendarCorpus, runReference, type ReferenceAnswer, type Window } from '../helpers/ical-reference';
import { sameAnswers } from './differential-support';

const HOST_ZONE = 'America/New_York';

const files = calendarCorpus();

/** The exceptions table of docs/calendars.md: file name → reason. */
function exceptions(): Map<string, string> {
  const doc = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'calendars.md'), 'utf8');
  const section = doc.split(/^### Where the reference readers differ$/m)[1]?.split(/^#{2,3} /m)[0] ?? '';
  const out = new Map<string, string>();
  for (const m of section.matchAll(/^\| `([^`]+\.ics)` \| (.+) \|$/gm)) out.set(m[1], m[2]);
  return out;
}

const iso = (ms: number) => new Date(ms).toISOString();
const fmt = (k: string) =>
  k
    .split(',')
    .map((n) => iso(Number(n)))
    .join(' .. ');

/** The first interval one side has more often than the other, in time order; null when the multisets are equal. */
function firstDifference(ours: Array<[number, number]>, ref: Array<[number, number]>): string | null {
  const count = new Map<string, number>();
  for (const [s, e] of ours) count.set(`${s},${e}`, (count.get(`${s},${e}`) ?? 0) + 1);
  for (const [s, e] of ref) count.set(`${s},${e}`, (count.get(`${s},${e}`) ?? 0) - 1);
  const differing = [...count].filter(([, n]) => n !== 0).sort((a, b) => Number(a[0].split(',')[0]) - Number(b[0].split(',')[0]));
  if (!differing.length) return null;
  const [key, n] = differing[0];
  return `${fmt(key)} ${n > 0 ? 'only in ours' : 'only in the reference'} (${ours.length} intervals here, ${ref.length} in the reference)`;
}

/** Our answer, and how many parts we skipped to read it. */
type Ours = ReferenceAnswer & { skipped: number };

function ourAnswer(text: string, windows: Window[]): Ours {
  const ours: Array<Array<[number, number]>> = [];
  let skipped = 0;
  for (const [from, to] of windows) {
    try {
      const read = readBusy(text, { from, to, hostEmails: [], hostZone: HOST_ZONE });
      skipped = Math.max(skipped, read.skipped.length);
      ours.push(read.busy.map((o): [number, number] => [o.start, o.end]));
    } catch (e) {
      return { error: (e as Error).message, skipped };
    }
  }
  return { windows: ours, skipped };
}

/**
 * Null when the answers agree. A reference that rejects the whole file agrees with us when we reject
 * it too, or when we read it and report skipped parts (both saw the defect; we read around it:
 * docs/calendars.md, "One bad line"). Reading cleanly what a reference rejects is a difference.
 */
function compare(answer: Ours, windows: Window[], ref: ReferenceAnswer): string | null {
  const error = 'error' in answer ? answer.error : null;
  const ours = 'windows' in answer ? answer.windows : [];
  if ('error' in ref) return error || answer.skipped > 0 ? null : `the reference rejects it (${ref.error.slice(0, 200)}), we read it`;
  if (error) return `we reject it (${error.slice(0, 200)}), the reference reads it`;
  for (let i = 0; i < windows.length; i++) {
    const diff = firstDifference(ours[i], ref.windows[i]);
    if (diff) return `window ${iso(windows[i][0])} .. ${iso(windows[i][1])}: first differing interval ${diff}`;
  }
  return null;
}

let first: Map<string, ReferenceAnswer>;
let second: Map<string, ReferenceAnswer>;
const listed = exceptions();
/** Per file: whether we agree with the first and the second reference, and whether they agree. */
const tally = new Map<string, { first: boolean; second: boolean; refs: boolean }>();

beforeAll(async () => {
  [first, second] = await Promise.all([runReference(files, HOST_ZONE, 'first'), runReference(files, HOST_ZONE, 'second')]).then((runs) =>
    runs.map((r) => r.byPath),
  );
}, 300_000);

afterAll(() => {
  if (tally.size < files.length) return; // a filtered run: no figures
  const n = files.length;
  const count = (k: 'first' | 'second' | 'refs', v = true) => [...tally.values()].filter((t) => t[k] === v).length;
  const apart = [...tally].filter(([, t]) => !t.refs).map(([name]) => name);
  const both = [...tally.values()].filter((t) => !t.first && !t.second).length;
  process.stdout.write(
    `calendar differential: ${n} files; same busy time as the first reference ${count('first')} (${pct(count('first'), n)}), ` +
      `as the second ${count('second')} (${pct(count('second'), n)}), as at least one ${n - both} (${pct(n - both, n)}); ` +
      `the two references disagree on ${apart.length} files:\n${apart.map((a) => `  ${a}`).join('\n')}\n`,
  );
});

const pct = (k: number, n: number) => `${((100 * k) / n).toFixed(1)}%`;

it('the corpus holds at least 100 real-world calendar files, and the exceptions table names only them', () => {
  expect(files.length).toBeGreaterThanOrEqual(100);
  const names = new Set(files.map((f) => f.name));
  expect([...listed.keys()].filter((n) => !names.has(n))).toEqual([]);
});

describe.each(files.map((f) => [f.name, f] as const))('%s', (name, f) => {
  it('has the busy time of one reference expander at least, or is listed in docs/calendars.md with its reason', () => {
    const ours = ourAnswer(f.text, f.windows);
    const [a, b] = [first.get(f.path)!, second.get(f.path)!];
    const [diffA, diffB] = [compare(ours, f.windows, a), compare(ours, f.windows, b)];
    tally.set(name, { first: diffA === null, second: diffB === null, refs: sameAnswers(a, b) });
    const agrees = diffA === null || diffB === null;
    if (listed.has(name)) {
      expect(agrees ? `${name} agrees with a reference now: remove it from the table in docs/calendars.md` : null).toBeNull();
    } else {
      expect(agrees ? null : `${name}: first reference: ${diffA}; second reference: ${diffB}`).toBeNull();
    }
  });
});
