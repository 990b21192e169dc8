/**
 * The reference iCalendar expander (Python's recurring-ical-events with icalendar) and the real-world
 * corpus that ships inside those two distributions, both installed by `node scripts/bootstrap.js` with
 * `pip install --target` into ${XDG_CACHE_HOME:-~/.cache}/fss-tools/ical-reference (or the folder env
 * ICAL_REFERENCE_PYTHONPATH names; same lookup as the bootstrap). Used by
 * test/calendars/differential.test.ts and `npm run bench calendars`.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { icalReferenceDir, icalSecondReferenceDir } from '../../scripts/tool-paths';

/** Keep in sync with ICAL_REFERENCE_REQUIREMENTS in scripts/bootstrap.js. */
export const ICAL_REFERENCE_REQUIREMENTS = ['recurring-ical-events==3.8.2', 'icalendar==7.3.2'];
/** The second reference, Python's `ical` (its own parser). Keep in sync with scripts/bootstrap.js. */
export const ICAL_SECOND_REFERENCE_REQUIREMENTS = ['ical==14.3.1'];

export { icalReferenceDir, icalSecondReferenceDir };

export function icalReferenceInstalled(dir = icalReferenceDir()): boolean {
  return fs.existsSync(path.join(dir, 'recurring_ical_events', '__init__.py')) && fs.existsSync(path.join(dir, 'icalendar', '__init__.py'));
}

function assertInstalled(dir: string): void {
  if (icalReferenceInstalled(dir)) return;
  throw new Error(
    `The reference iCalendar expander is not installed in ${dir}. Run \`node scripts/bootstrap.js\` (it pip-installs ` +
      `${ICAL_REFERENCE_REQUIREMENTS.join(' ')} there), or point ICAL_REFERENCE_PYTHONPATH at a folder that holds them.`,
  );
}

/** The folders of the installed distributions that hold real-world .ics files (test/calendars/corpus/README.md). */
export const CORPUS_FOLDERS = ['recurring_ical_events/test/calendars', 'icalendar/tests'];

/** test/calendars/corpus/issue-42: minimal calendars of issue 42's real-world shapes, written for this project. */
const OWN_FIXTURES = path.join(__dirname, '..', 'calendars', 'corpus', 'issue-42');

export interface CorpusFile {
  /** Absolute path. */
  path: string;
  /** Relative to the reference folder, e.g. `icalendar/tests/calendars/issue_27_period.ics`: what the test names. */
  name: string;
}

/** Every .ics file of the corpus, sorted by name. */
export function corpusFiles(dir = icalReferenceDir()): CorpusFile[] {
  assertInstalled(dir);
  const out: CorpusFile[] = [];
  const walk = (abs: string) => {
    for (const entry of fs.readdirSync(abs, { withFileTypes: true })) {
      const p = path.join(abs, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.name.endsWith('.ics')) out.push({ path: p, name: path.relative(dir, p) });
    }
  };
  for (const folder of CORPUS_FOLDERS) walk(path.join(dir, folder));
  // The project's own fixtures (committed, not in the tools cache), named by their folder here.
  for (const name of fs.readdirSync(OWN_FIXTURES)) {
    if (name.endsWith('.ics')) out.push({ path: path.join(OWN_FIXTURES, name), name: `issue-42/${name}` });
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : 1));
}

export type Window = [from: number, to: number];

/**
 * The windows a file is compared in, from its own dates (never from today): two years from 1 January
 * of the year of its earliest event DTSTART (VTIMEZONE onsets left out), and the same window 40 years later (unbounded rules
 * fast-forwarded). A file without a DTSTART gets 2000–2002 and 2040–2042.
 */
export function windowsFor(text: string): Window[] {
  let year = Infinity;
  const events = text.replace(/^BEGIN:VTIMEZONE[\s\S]*?^END:VTIMEZONE/gim, ''); // a zone's onsets are not events
  for (const m of events.matchAll(/^DTSTART[^:\r\n]*:(\d{4})/gim)) year = Math.min(year, Number(m[1]));
  if (!Number.isFinite(year) || year < 1900) year = 2000;
  const at = (y: number) => Date.UTC(y, 0, 1);
  return [
    [at(year), at(year + 2)],
    [at(year + 40), at(year + 42)],
  ];
}

/** A calendar file (a VCALENDAR), not one of the libraries' bare-component fixtures. */
const isCalendar = (text: string) => /^\uFEFF?\s*BEGIN:VCALENDAR/i.test(text);

export interface CalendarFile extends CorpusFile {
  text: string;
  windows: Window[];
}

/** The calendar files of the corpus, read, each with its windows (test/calendars/corpus/README.md). */
export function calendarCorpus(dir = icalReferenceDir()): CalendarFile[] {
  return corpusFiles(dir)
    .map((f) => ({ ...f, text: fs.readFileSync(f.path, 'utf8') }))
    .filter((f) => isCalendar(f.text))
    .map((f) => ({ ...f, windows: windowsFor(f.text) }));
}

export type ReferenceAnswer = { windows: Array<Array<[number, number]>> } | { error: string };

export interface ReferenceRun {
  byPath: Map<string, ReferenceAnswer>;
  /** The reference's own time parsing and expanding (measured inside Python). */
  seconds: number;
}

/** The reference expanders: `first` is recurring-ical-events on icalendar, `second` is `ical` (independent of the first). */
export type Reference = 'first' | 'second';

function secondDir(): string {
  const dir = icalSecondReferenceDir();
  if (!fs.existsSync(path.join(dir, 'ical', 'calendar_stream.py'))) {
    throw new Error(
      `The second reference iCalendar expander is not installed in ${dir}. Run \`node scripts/bootstrap.js\` (it pip-installs ` +
        `${ICAL_SECOND_REFERENCE_REQUIREMENTS.join(' ')} there), or point ICAL_SECOND_REFERENCE_PYTHONPATH at a folder that holds it.`,
    );
  }
  return dir;
}

/** Runs test/calendars/reference/busy.py (first) or busy_ical.py (second) on the files, each with its windows. */
export async function runReference(
  files: Array<{ path: string; windows: Window[] }>,
  hostZone: string,
  which: Reference = 'first',
): Promise<ReferenceRun> {
  let dir = icalReferenceDir();
  if (which === 'first') assertInstalled(dir);
  else dir = secondDir();
  const script = path.join(__dirname, '..', 'calendars', 'reference', which === 'first' ? 'busy.py' : 'busy_ical.py');
  const child = spawn('python3', [script], {
    env: { ...process.env, PYTHONPATH: dir, PYTHONDONTWRITEBYTECODE: '1' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const chunks: Buffer[] = [];
  const errors: Buffer[] = [];
  child.stdout.on('data', (c: Buffer) => chunks.push(c));
  child.stderr.on('data', (c: Buffer) => errors.push(c));
  child.stdin.end(JSON.stringify({ hostZone, files }));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  if (code !== 0) throw new Error(`reference expander exited with ${code}: ${Buffer.concat(errors).toString().slice(0, 2000)}`);
  const parsed = JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>;
  const seconds = Number(parsed._seconds);
  delete parsed._seconds;
  return { byPath: new Map(Object.entries(parsed) as Array<[string, ReferenceAnswer]>), seconds };
}
