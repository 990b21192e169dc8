import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import path from 'node:path';
import { median, type MailReadings } from './mail-measure';

/**
 * The inbound classifier's rate (messages/s) on the whole real-message corpus (test/mail/corpus/:
 * bounces from 40+ kinds of MTA, warnings, auto-replies, human replies), against mailparser alone on
 * the same bytes in the same run (bench/mail-measure.ts), two ways: simpleParser, mailparser's
 * one-call API, and MailParser read into the facts' shape, the very parse the classifier's side
 * does (core/mail-parse.ts). Against the second, the gap is the facts and the classifier alone.
 *
 * Two readings of the same runs (docs/throughput.md, "Inbound mail classification, fourth pass"):
 * - typical: each message's median time over the rounds (this thread's clock), summed. A rare
 *   pause (a major GC, the machine stealing the CPU) lands on one side only; the median drops it.
 * - CPU totals: the process's CPU time (process.cpuUsage), summed. It also counts other threads
 *   (concurrent GC, the optimizing compiler), whichever side is running when they bill.
 * Each of MAIL_BENCH_PROCESSES processes (3 by default) measures on its own: a process's code
 * layout and compiler decisions move a ratio by a few points, so the median of the processes is
 * the figure. MAIL_BENCH_ROUNDS sets each one's rounds (20); MAIL_BENCH_CONTROL=1 puts simpleParser
 * on the classifier's side too, to show what the readings give for equal work.
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
  const baselines = ['simple', 'read'] as const;
  type Reading = 'typical' | 'cpu';
  const ratios: Record<`${Reading} ${(typeof baselines)[number]}`, number[]> = {
    'typical simple': [],
    'typical read': [],
    'cpu simple': [],
    'cpu read': [],
  };
  const side = control ? 'simpleParser again (control)' : 'parse + classify';
  for (let p = 0; p < processes; p++) {
    const r = measureInOwnProcess();
    const load = loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
    const lines = (['typical', 'cpu'] as const).map((reading) => {
      const v = r[reading];
      const of = baselines.map((b) => {
        const ratio = v.classify / v[b];
        ratios[`${reading} ${b}`].push(ratio);
        return `${ratio.toFixed(3)}x of ${b === 'simple' ? 'simpleParser' : 'the same read'}`;
      });
      const unit = reading === 'typical' ? 'messages per second (median per message)' : 'messages per CPU second';
      return `  ${reading === 'typical' ? 'typical' : 'CPU totals'}: simpleParser ${v.simple.toFixed(0)}, MailParser read ${v.read.toFixed(0)}, ${side} ${v.classify.toFixed(0)} ${unit}: ${of.join(', ')}\n`;
    });
    process.stdout.write(
      `process ${p + 1}: ${r.messages} real messages, ${r.rounds} rounds, load average ${load}${control ? ', CONTROL: simpleParser on the classifier side' : ''}\n${lines.join('')}`,
    );
  }
  const m = (k: keyof typeof ratios) => median(ratios[k]).toFixed(3);
  process.stdout.write(
    `median of ${processes} processes: typical ${m('typical simple')}x of simpleParser, ${m('typical read')}x of the same read; ` +
      `CPU totals ${m('cpu simple')}x of simpleParser, ${m('cpu read')}x of the same read\n`,
  );
}
