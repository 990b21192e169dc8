/**
 * Expanding the real-world corpus (test/calendars/corpus/README.md) with domain/calendars/expand.ts,
 * next to the reference expander's own time (recurring-ical-events, measured inside Python, without its
 * start-up) on the same files and windows. Part of `npm run bench calendars`.
 */
import os from 'node:os';
import { expandBusy } from '../domain/calendars/expand';
import { calendarCorpus, runReference } from '../test/helpers/ical-reference';

const HOST_ZONE = 'America/New_York';

export async function corpusBench(): Promise<void> {
  const files = calendarCorpus();
  const pass = () => {
    let intervals = 0;
    for (const f of files) {
      for (const [from, to] of f.windows) {
        try {
          intervals += expandBusy(f.text, { from, to, hostEmails: [], hostZone: HOST_ZONE }).length;
        } catch {
          // unreadable objects count as expanded: the reference also spends its time on them
        }
      }
    }
    return intervals;
  };
  const intervals = pass(); // warm-up (and ical.js' zone cache)
  let passes = 0;
  const t0 = process.hrtime.bigint();
  while (passes < 3 || Number(process.hrtime.bigint() - t0) < 3e9) {
    pass();
    passes++;
  }
  const oursS = Number(process.hrtime.bigint() - t0) / 1e9 / passes;
  const ref = await runReference(files, HOST_ZONE);
  const objects = files.length * 2;
  const load = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  process.stdout.write(
    `expand corpus (${files.length} files × 2 windows = ${objects} objects, ${intervals} busy intervals), load average ${load}:\n` +
      `  ours (ical.js)                      ${(objects / oursS).toFixed(0).padStart(6)} objects/s  (${(oursS * 1000).toFixed(0)} ms a pass, ${passes} passes)\n` +
      `  reference (recurring-ical-events)   ${(objects / ref.seconds).toFixed(0).padStart(6)} objects/s  (${(ref.seconds * 1000).toFixed(0)} ms, one pass)\n` +
      `  ratio: ours ${(ref.seconds / oursS).toFixed(1)}× the reference's speed\n`,
  );
}
