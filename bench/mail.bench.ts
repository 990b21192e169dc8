import { loadavg } from 'node:os';
import { simpleParser } from 'mailparser';
import { parseMailFacts } from '../core/mail-facts';
import { classifyMail } from '../domain/mail-classify';
import { DOMAINS, TOKEN } from '../test/mail/corpus';
import { envelopeOf, loadCorpus } from '../test/mail/corpus/sources';

/**
 * The inbound classifier's rate (messages/s) on the whole real-message corpus (test/mail/corpus/:
 * bounces from 40+ kinds of MTA, warnings, auto-replies, human replies), against mailparser alone on
 * the same bytes in the same run, message by message (alternating which goes first) so that a busy
 * machine slows both alike. The classifier's own cost is the gap between the two.
 *
 * Two readings of the same runs (docs/throughput.md, "Inbound mail classification, fourth pass"):
 * - typical: each message's median time over the rounds (this thread's clock), summed. A rare
 *   pause (a major GC, the machine stealing the CPU) lands on one side only; the median drops it.
 * - CPU totals: the process's CPU time (process.cpuUsage), summed. It also counts other threads
 *   (concurrent GC, the optimizing compiler), whichever side is running when they bill.
 * MAIL_BENCH_CONTROL=1 puts mailparser alone on both sides: what each reading gives for equal work.
 */
const REPLY_TO = `reply+${TOKEN}@${DOMAINS.reply}`;
const OPTIONS = { skipImageLinks: true, skipTextToHtml: true, skipTextLinks: true };

/** Pure code on files: runs without the database, Temporal or the API (bench/index.ts starts none of them). */
export const standalone = true;

type Arm = 'parse' | 'classify';
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

export default async function mailBench(): Promise<void> {
  const corpus = loadCorpus().map((m) => ({ raw: m.raw, envelope: envelopeOf(m.raw, REPLY_TO) }));
  const control = process.env.MAIL_BENCH_CONTROL === '1';
  const run: Record<Arm, (m: (typeof corpus)[number]) => Promise<unknown>> = {
    parse: (m) => simpleParser(m.raw, OPTIONS),
    classify: control ? (m) => simpleParser(m.raw, OPTIONS) : async (m) => classifyMail(await parseMailFacts(m.raw, m.envelope), DOMAINS),
  };
  for (const m of corpus) await run.classify(m); // warm-up
  for (const m of corpus) await run.parse(m);
  // MAIL_BENCH_ROUNDS: more rounds narrow the spread on a noisy machine (20 by default).
  const rounds = Number(process.env.MAIL_BENCH_ROUNDS ?? 20);
  const times: Record<Arm, number[][]> = { parse: corpus.map(() => []), classify: corpus.map(() => []) };
  const cpu: Record<Arm, number> = { parse: 0, classify: 0 };
  for (let i = 0; i < rounds; i++) {
    for (const [j, m] of corpus.entries()) {
      // Message by message, the two back to back (alternating which goes first), so that both see the same machine.
      for (const arm of (i + j) % 2 ? (['classify', 'parse'] as const) : (['parse', 'classify'] as const)) {
        const cpu0 = process.cpuUsage();
        const t0 = process.hrtime.bigint();
        await run[arm](m);
        times[arm][j].push(Number(process.hrtime.bigint() - t0));
        const d = process.cpuUsage(cpu0);
        cpu[arm] += d.user + d.system;
      }
    }
  }
  const n = corpus.length * rounds;
  // Messages per second of the summed medians (ns), and per CPU second (µs).
  const typical = (arm: Arm) => (corpus.length / times[arm].reduce((s, t) => s + median(t), 0)) * 1e9;
  const perCpu = (arm: Arm) => (n / cpu[arm]) * 1e6;
  const line = (label: string, rate: (arm: Arm) => number, unit: string) =>
    `${label}: mailparser alone ${rate('parse').toFixed(0)}, parse + ${control ? 'parse again (control)' : 'classify'} ${rate('classify').toFixed(0)} messages per ${unit} (${(rate('classify') / rate('parse')).toFixed(3)}x the baseline)\n`;
  process.stdout.write(
    `corpus: ${corpus.length} real messages, ${rounds} rounds, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}${control ? ', CONTROL: mailparser on both sides' : ''}\n`,
  );
  process.stdout.write(line('typical (median per message)', typical, 'second'));
  process.stdout.write(line('CPU totals', perCpu, 'CPU second'));
}
