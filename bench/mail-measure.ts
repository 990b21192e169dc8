import * as mailparser from 'mailparser';
import * as facts from '../core/mail-facts';
import * as classify from '../domain/mail-classify';
import * as corpusNames from '../test/mail/corpus';
import { envelopeOf, loadCorpus } from '../test/mail/corpus/sources';

// Bound once, at load, as the classifier binds its own (domain/mail-classify.ts): under tsx a named
// import is read through getters at each use, and the timed loop should time the parse and the
// classifier, not the harness's imports. Both sides read theirs this way.
const { simpleParser } = mailparser;
const { parseMailFacts } = facts;
const { classifyMail } = classify;
const { DOMAINS, TOKEN } = corpusNames;

/**
 * One process's measurement for bench/mail.bench.ts: the whole corpus parsed and classified next to
 * mailparser alone on the same bytes, message by message, the two back to back (alternating which
 * goes first) so that both see the same machine. Run as a script, it prints its readings as JSON.
 */
const REPLY_TO = `reply+${TOKEN}@${DOMAINS.reply}`;
const OPTIONS = { skipImageLinks: true, skipTextToHtml: true, skipTextLinks: true };

type Arm = 'parse' | 'classify';
export interface MailReadings {
  messages: number;
  rounds: number;
  /** Messages per second of each message's median time over the rounds (this thread's clock), summed. */
  typical: Record<Arm, number>;
  /** Messages per CPU second of the process (process.cpuUsage: every thread), summed. */
  cpu: Record<Arm, number>;
}

/** The middle value (the upper one of an even count). */
export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** `control`: mailparser alone on both sides (what the readings give for equal work). */
export async function measureMail(rounds: number, control: boolean): Promise<MailReadings> {
  const corpus = loadCorpus().map((m) => ({ raw: m.raw, envelope: envelopeOf(m.raw, REPLY_TO) }));
  const run: Record<Arm, (m: (typeof corpus)[number]) => Promise<unknown>> = {
    parse: (m) => simpleParser(m.raw, OPTIONS),
    // A `then`, as the parse side returns mailparser's promise: no async function's promise and turn more.
    classify: control
      ? (m) => simpleParser(m.raw, OPTIONS)
      : (m) => parseMailFacts(m.raw, m.envelope).then((f) => classifyMail(f, DOMAINS)),
  };
  for (const m of corpus) await run.classify(m); // warm-up
  for (const m of corpus) await run.parse(m);
  const times: Record<Arm, number[][]> = { parse: corpus.map(() => []), classify: corpus.map(() => []) };
  const cpu: Record<Arm, number> = { parse: 0, classify: 0 };
  for (let i = 0; i < rounds; i++) {
    for (const [j, m] of corpus.entries()) {
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
  const typical = (arm: Arm) => (corpus.length / times[arm].reduce((s, t) => s + median(t), 0)) * 1e9;
  const perCpu = (arm: Arm) => ((corpus.length * rounds) / cpu[arm]) * 1e6;
  return {
    messages: corpus.length,
    rounds,
    typical: { parse: typical('parse'), classify: typical('classify') },
    cpu: { parse: perCpu('parse'), classify: perCpu('classify') },
  };
}

if (require.main === module) {
  void measureMail(Number(process.env.MAIL_BENCH_ROUNDS ?? 20), process.env.MAIL_BENCH_CONTROL === '1').then((r) =>
    process.stdout.write(`${JSON.stringify(r)}\n`),
  );
}
