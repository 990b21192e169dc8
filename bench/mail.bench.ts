import { simpleParser } from 'mailparser';
import { parseMailFacts } from '../core/mail-facts';
import { classifyMail } from '../domain/mail-classify';
import { DOMAINS, TOKEN } from '../test/mail/corpus';
import { envelopeOf, loadCorpus } from '../test/mail/corpus/sources';

/**
 * The inbound classifier's rate (messages/s) on the whole real-message corpus (test/mail/corpus/:
 * bounces from 40+ kinds of MTA, warnings, auto-replies, human replies), against mailparser alone on
 * the same bytes in the same run, message by message (alternating which goes first) so that a busy machine slows both alike.
 * The classifier's own cost is the gap between the two. Rates are per CPU second of this process
 * (process.cpuUsage), which a loaded machine distorts far less than wall time.
 */
const REPLY_TO = `reply+${TOKEN}@${DOMAINS.reply}`;
const OPTIONS = { skipImageLinks: true, skipTextToHtml: true, skipTextLinks: true };

/** CPU milliseconds (user + system) of this process: on a shared machine, others' load barely moves it. */
async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = process.cpuUsage();
  await fn();
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1000;
}

/** Pure code on files: runs without the database, Temporal or the API (bench/index.ts starts none of them). */
export const standalone = true;

export default async function mailBench(): Promise<void> {
  const corpus = loadCorpus().map((m) => ({ raw: m.raw, envelope: envelopeOf(m.raw, REPLY_TO) }));
  const parse = (m: (typeof corpus)[number]) => simpleParser(m.raw, OPTIONS);
  const classify = async (m: (typeof corpus)[number]) => classifyMail(await parseMailFacts(m.raw, m.envelope), DOMAINS);
  for (const m of corpus) await classify(m); // warm-up
  for (const m of corpus) await parse(m);
  let parseMs = 0;
  let classifyMs = 0;
  // MAIL_BENCH_ROUNDS: more rounds narrow the spread on a noisy machine (20 by default).
  const rounds = Number(process.env.MAIL_BENCH_ROUNDS ?? 20);
  // Message by message, the two back to back (alternating which goes first), so that both see the same machine.
  for (let i = 0; i < rounds; i++) {
    for (const [j, m] of corpus.entries()) {
      if ((i + j) % 2) classifyMs += await timed(() => classify(m));
      parseMs += await timed(() => parse(m));
      if (!((i + j) % 2)) classifyMs += await timed(() => classify(m));
    }
  }
  const n = corpus.length * rounds;
  const parseRate = (n / parseMs) * 1000;
  const classifyRate = (n / classifyMs) * 1000;
  const { loadavg } = await import('node:os');
  process.stdout.write(
    `corpus: ${corpus.length} real messages, ${rounds} rounds, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}\n`,
  );
  process.stdout.write(`mailparser alone (baseline): ${parseRate.toFixed(0)} messages per CPU second\n`);
  process.stdout.write(
    `parse + classify:            ${classifyRate.toFixed(0)} messages per CPU second (${(classifyRate / parseRate).toFixed(2)}x the baseline)\n`,
  );
}
