import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import path from 'node:path';
import { median, type MailReadings } from './mail-measure';

/**
 * A guard on the inbound classifier's cost: on the whole real-message corpus (test/mail/corpus/),
 * making the facts and classifying must cost at most GUARD (15%) of the parse they follow.
 * bench/mail-measure.ts times, message by message, the parse alone and parse + facts + classify;
 * the difference over the parse is the share printed. A message also costs a database write and a
 * workflow, so the guard keeps the classifier a small part of the parse, not a race for microseconds.
 *
 * Each of MAIL_BENCH_PROCESSES processes (3 by default) measures on its own (a process's compiled
 * code differs from the next one's by a few points); the median of the processes is the figure.
 * MAIL_BENCH_ROUNDS sets each one's rounds (20); MAIL_BENCH_CONTROL=1 puts the parse alone on both
 * sides, to show what equal work reads as (about 0%).
 */
const GUARD = 0.15;

/** Pure code on files: runs without the database, Temporal or the API (bench/index.ts starts none of them). */
export const standalone = true;

function measureInOwnProcess(): MailReadings {
  const run = spawnSync(process.execPath, ['--import', 'tsx', path.join(__dirname, 'mail-measure.ts')], {
    encoding: 'utf8',
    env: process.env,
  });
  if (run.status !== 0) throw new Error(`bench/mail-measure.ts failed (exit ${run.status}): ${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').pop() ?? '') as MailReadings;
}

const percent = (share: number) => `${(share * 100).toFixed(1)}%`;

export default async function mailBench(): Promise<void> {
  const control = process.env.MAIL_BENCH_CONTROL === '1';
  const processes = Number(process.env.MAIL_BENCH_PROCESSES ?? 3);
  const shares: number[] = [];
  for (let p = 0; p < processes; p++) {
    const r = measureInOwnProcess();
    const { parse, classify } = r.corpusMicros;
    const share = classify / parse - 1;
    shares.push(share);
    const load = loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
    process.stdout.write(
      `process ${p + 1}: ${r.messages} real messages, ${r.rounds} rounds, load average ${load}${control ? ', CONTROL: the parse on both sides' : ''}\n` +
        `  parse ${(parse / r.messages).toFixed(0)} µs a message, ${control ? 'the parse again' : 'parse + facts + classify'} ${(classify / r.messages).toFixed(0)} µs: ` +
        `facts and classification ${percent(share)} of the parse\n`,
    );
  }
  const share = median(shares);
  const holds = share <= GUARD;
  process.stdout.write(
    `median of ${processes} processes: facts and classification cost ${percent(share)} of the parse; ` +
      `guard (at most ${percent(GUARD)}) ${holds ? 'holds' : 'FAILS'}\n`,
  );
  if (!holds && !control) throw new Error(`facts and classification cost ${percent(share)} of the parse, more than ${percent(GUARD)}`);
}
