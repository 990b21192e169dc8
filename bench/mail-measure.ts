import path from 'node:path';
import * as sourceFacts from '../core/mail-facts';
import * as sourceClassify from '../domain/mail-classify';
import { DOMAINS, TOKEN } from '../test/mail/corpus';
import { envelopeOf, loadCorpus } from '../test/mail/corpus/sources';

/**
 * One process's measurement for bench/mail.bench.ts: each corpus message parsed alone (mailparser's
 * MailParser read as the facts read it, core/mail-parse.ts) and parsed, made into facts and
 * classified, the two back to back (each round and message in a different order) so that both see
 * the same machine. Run as a script, it prints its readings as JSON.
 *
 * `codeDir`: a folder of the compiled classifier (bench/mail-build.ts) to time instead of the
 * TypeScript sources as this process loaded them.
 */
const REPLY_TO = `reply+${TOKEN}@${DOMAINS.reply}`;

export const ARMS = ['parse', 'classify'] as const;
export type Arm = (typeof ARMS)[number];
export interface MailReadings {
  messages: number;
  rounds: number;
  /** Each side's time for the whole corpus, in µs: the sum of each message's median time over the rounds. */
  corpusMicros: Record<Arm, number>;
}

/** The middle value (the upper one of an even count). */
export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** `control`: the parse alone on the classifier's side too (what the reading gives for equal work). */
export async function measureMail(rounds: number, control: boolean, codeDir?: string): Promise<MailReadings> {
  const { parseMailFacts, readMail } = codeDir ? (require(path.join(codeDir, 'core/mail-facts.js')) as typeof sourceFacts) : sourceFacts;
  const { classifyMail } = codeDir ? (require(path.join(codeDir, 'domain/mail-classify.js')) as typeof sourceClassify) : sourceClassify;
  const corpus = loadCorpus().map((m) => ({ raw: m.raw, envelope: envelopeOf(m.raw, REPLY_TO) }));
  const run: Record<Arm, (m: (typeof corpus)[number]) => Promise<unknown>> = {
    parse: (m) => readMail(m.raw),
    classify: control ? (m) => readMail(m.raw) : async (m) => classifyMail(await parseMailFacts(m.raw, m.envelope), DOMAINS),
  };
  for (const arm of ARMS) for (const m of corpus) await run[arm](m); // warm-up
  const times = Object.fromEntries(ARMS.map((a) => [a, corpus.map((): number[] => [])])) as Record<Arm, number[][]>;
  for (let i = 0; i < rounds; i++) {
    for (const [j, m] of corpus.entries()) {
      for (let k = 0; k < ARMS.length; k++) {
        const arm = ARMS[(i + j + k) % ARMS.length];
        const t0 = process.hrtime.bigint();
        await run[arm](m);
        times[arm][j].push(Number(process.hrtime.bigint() - t0));
      }
    }
  }
  // The median drops a rare pause (a major GC, the machine stealing the CPU) that lands on one side only.
  const total = (arm: Arm) => times[arm].reduce((s, t) => s + median(t), 0) / 1e3;
  return { messages: corpus.length, rounds, corpusMicros: { parse: total('parse'), classify: total('classify') } };
}

if (require.main === module) {
  const rounds = Number(process.env.MAIL_BENCH_ROUNDS ?? 20);
  void measureMail(rounds, process.env.MAIL_BENCH_CONTROL === '1', process.env.MAIL_BENCH_CODE_DIR || undefined).then((r) =>
    process.stdout.write(`${JSON.stringify(r)}\n`),
  );
}
