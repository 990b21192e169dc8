/**
 * Differential test: busy time from domain/calendars/expand.ts equals busy time from an independent
 * expander (Python's recurring-ical-events with icalendar; test/calendars/reference/busy.py) on a corpus
 * of real-world .ics files (test/calendars/corpus/README.md), as a multiset of intervals per file and
 * window; each file in its own years and again 40 years later (unbounded rules fast-forwarded). The
 * files where the two differ, and why, are the one table in docs/calendars.md ("Where the reference
 * reader differs"); a listed file that agrees again fails too, so the table stays true.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expandBusy } from '../../domain/calendars/expand';
import { calendarCorpus, runReference, type ReferenceAnswer, type Window } from '../helpers/ical-reference';

const HOST_ZONE = 'America/New_York';

const files = calendarCorpus();

/** The exceptions table of docs/calendars.md: file name → reason. */
function exceptions(): Map<string, string> {
  const doc = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'calendars.md'), 'utf8');
  const section = doc.split(/^### Where the reference reader differs$/m)[1]?.split(/^#{2,3} /m)[0] ?? '';
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

function compare(text: string, windows: Window[], ref: ReferenceAnswer): string | null {
  const ours: Array<Array<[number, number]>> = [];
  let error: string | null = null;
  for (const [from, to] of windows) {
    try {
      ours.push(expandBusy(text, { from, to, hostEmails: [], hostZone: HOST_ZONE }).map((o): [number, number] => [o.start, o.end]));
    } catch (e) {
      error = (e as Error).message;
      break;
    }
  }
  if ('error' in ref) return error ? null : `the reference rejects it (${ref.error.slice(0, 200)}), we read it`;
  if (error) return `we reject it (${error.slice(0, 200)}), the reference reads it`;
  for (let i = 0; i < windows.length; i++) {
    const diff = firstDifference(ours[i], ref.windows[i]);
    if (diff) return `window ${iso(windows[i][0])} .. ${iso(windows[i][1])}: first differing interval ${diff}`;
  }
  return null;
}

let reference: Map<string, ReferenceAnswer>;
const listed = exceptions();

beforeAll(async () => {
  reference = (await runReference(files, HOST_ZONE)).byPath;
}, 300_000);

it('the corpus holds at least 100 real-world calendar files, and the exceptions table names only them', () => {
  expect(files.length).toBeGreaterThanOrEqual(100);
  const names = new Set(files.map((f) => f.name));
  expect([...listed.keys()].filter((n) => !names.has(n))).toEqual([]);
});

describe.each(files.map((f) => [f.name, f] as const))('%s', (name, f) => {
  it('has the busy time of the reference expander, or is listed in docs/calendars.md with its reason', () => {
    const diff = compare(f.text, f.windows, reference.get(f.path)!);
    if (listed.has(name)) {
      expect(diff === null ? `${name} agrees with the reference now: remove it from the table in docs/calendars.md` : null).toBeNull();
    } else {
      expect(diff === null ? null : `${name}: ${diff}`).toBeNull();
    }
  });
});
