import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import path from 'node:path';
import { median, type MailReadings } from './mail-measure';

/**
 * The inbound classifier's rate (messages/s) on the whole real-message corpus (test/mail/corpus/:
 * bounces from 40+ kinds of MTA, warnings, auto-replies, human replies), against mailparser alone on
 * the same bytes in the same run (bench/mail-measure.ts). The classifier's own cost is the gap.
 *
 * Two readings of the same runs (docs/throughput.md, "Inbound mail classification, fourth pass"):
 * - typical: each message's median time over the rounds (this thread's clock), summed. A rare
 *   pause (a major GC, the machine stealing the CPU) lands on one side only; the median drops it.
 * - CPU totals: the process's CPU time (process.cpuUsage), summed. It also counts other threads
 *   (concurrent GC, the optimizing compiler), whichever side is running when they bill.
 * Each of MAIL_BENCH_PROCESSES processes (3 by default) measures on its own: a process's code
 * layout and compiler decisions move a ratio by a few points, so the median of the processes is
 * the figure. MAIL_BENCH_ROUNDS sets each one's rounds (20); MAIL_BENCH_CONTROL=1 puts mailparser
 * alone on both sides, to show what the readings give for equal work.
 */

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

export default async function mailBench(): Promise<void> {
  const control = process.env.MAIL_BENCH_CONTROL === '1';
  const processes = Number(process.env.MAIL_BENCH_PROCESSES ?? 3);
  const ratios: Record<'typical' | 'cpu', number[]> = { typical: [], cpu: [] };
  const side = control ? 'parse again (control)' : 'classify';
  for (let p = 0; p < processes; p++) {
    const r = measureInOwnProcess();
    const load = loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
    ratios.typical.push(r.typical.classify / r.typical.parse);
    ratios.cpu.push(r.cpu.classify / r.cpu.parse);
    process.stdout.write(
      `process ${p + 1}: ${r.messages} real messages, ${r.rounds} rounds, load average ${load}${control ? ', CONTROL: mailparser on both sides' : ''}\n` +
        `  typical (median per message): mailparser alone ${r.typical.parse.toFixed(0)}, parse + ${side} ${r.typical.classify.toFixed(0)} messages per second (${ratios.typical[p].toFixed(3)}x)\n` +
        `  CPU totals: mailparser alone ${r.cpu.parse.toFixed(0)}, parse + ${side} ${r.cpu.classify.toFixed(0)} messages per CPU second (${ratios.cpu[p].toFixed(3)}x)\n`,
    );
  }
  process.stdout.write(
    `median of ${processes} processes: typical ${median(ratios.typical).toFixed(3)}x, CPU totals ${median(ratios.cpu).toFixed(3)}x the baseline (mailparser alone)\n`,
  );
}
