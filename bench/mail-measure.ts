import { simpleParser } from 'mailparser';
import { parseMailFacts, readMail } from '../core/mail-facts';
import { PARSE_OPTIONS as OPTIONS } from '../core/mail-parse';
import { classifyMail } from '../domain/mail-classify';
import { DOMAINS, TOKEN } from '../test/mail/corpus';
import { envelopeOf, loadCorpus } from '../test/mail/corpus/sources';

/**
 * One process's measurement for bench/mail.bench.ts: the whole corpus parsed and classified next to
 * mailparser alone on the same bytes, message by message, the sides back to back (each round and
 * message in a different order) so that all see the same machine. Run as a script, it prints its
 * readings as JSON. Two baselines, both mailparser alone:
 * - simple: simpleParser, mailparser's one-call API (what the bench compared with before);
 * - read: MailParser read into the facts' shape (core/mail-parse.ts), the very parse the classifier's
 *   side does: against it, the gap is the facts and the classifier alone.
 */
const REPLY_TO = `reply+${TOKEN}@${DOMAINS.reply}`;

export const ARMS = ['simple', 'read', 'classify'] as const;
export type Arm = (typeof ARMS)[number];
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

/** `control`: simpleParser on the classifier's side too (what the readings give for equal work). */
export async function measureMail(rounds: number, control: boolean): Promise<MailReadings> {
  const corpus = loadCorpus().map((m) => ({ raw: m.raw, envelope: envelopeOf(m.raw, REPLY_TO) }));
  // Each side returns its parser's promise, with a `then` where it does more: no async function's
  // promise and turn of the microtask queue on one side only.
  const run: Record<Arm, (m: (typeof corpus)[number]) => Promise<unknown>> = {
    simple: (m) => simpleParser(m.raw, OPTIONS),
    read: (m) => readMail(m.raw),
    classify: control
      ? (m) => simpleParser(m.raw, OPTIONS)
      : (m) => parseMailFacts(m.raw, m.envelope).then((f) => classifyMail(f, DOMAINS)),
  };
  for (const arm of ARMS) for (const m of corpus) await run[arm](m); // warm-up
  const times = Object.fromEntries(ARMS.map((a) => [a, corpus.map((): number[] => [])])) as Record<Arm, number[][]>;
  const cpu: Record<Arm, number> = { simple: 0, read: 0, classify: 0 };
  for (let i = 0; i < rounds; i++) {
    for (const [j, m] of corpus.entries()) {
      for (let k = 0; k < ARMS.length; k++) {
        const arm = ARMS[(i + j + k) % ARMS.length];
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
    typical: { simple: typical('simple'), read: typical('read'), classify: typical('classify') },
    cpu: { simple: perCpu('simple'), read: perCpu('read'), classify: perCpu('classify') },
  };
}

if (require.main === module) {
  void measureMail(Number(process.env.MAIL_BENCH_ROUNDS ?? 20), process.env.MAIL_BENCH_CONTROL === '1').then((r) =>
    process.stdout.write(`${JSON.stringify(r)}\n`),
  );
}
