import { simpleParser } from 'mailparser';
import { parseMailFacts } from '../core/mail-facts';
import { classifyMail } from '../domain/mail-classify';
import { BOUNCES, DOMAINS, OTHERS } from '../test/mail/corpus';

/**
 * The inbound listener's parse-and-classify rate (messages/s) on a mixed corpus (13 bounce shapes,
 * an ARF complaint, auto-replies, a human reply), against mailparser alone on the same messages in
 * the same run. The classifier's own cost is the gap between the two.
 */
const corpus = [...BOUNCES, ...OTHERS];

async function rate(fn: (i: number) => Promise<unknown>, ms = 3000): Promise<number> {
  for (let i = 0; i < 200; i++) await fn(i); // warm-up
  const start = performance.now();
  let n = 0;
  while (performance.now() - start < ms) await fn(n++);
  return (n / (performance.now() - start)) * 1000;
}

export default async function mailBench(): Promise<void> {
  const parseOnly = await rate((i) =>
    simpleParser(corpus[i % corpus.length].raw, { skipImageLinks: true, skipTextToHtml: true, skipTextLinks: true }),
  );
  const classify = await rate(async (i) => {
    const m = corpus[i % corpus.length];
    return classifyMail(await parseMailFacts(m.raw, m.envelope), DOMAINS);
  });
  process.stdout.write(`mailparser alone (baseline): ${parseOnly.toFixed(0)} messages/s\n`);
  process.stdout.write(
    `parse + classify:            ${classify.toFixed(0)} messages/s (${(classify / parseOnly).toFixed(2)}x the baseline)\n`,
  );
}
