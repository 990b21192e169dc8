import { parseMailFacts } from '../../core/mail-facts';
import { acceptsRecipient, parseTokenAddress, tokenAddress } from '../../domain/mail-address';
import { classifyMail } from '../../domain/mail-classify';
import { BOUNCES, DOMAINS, ORIGINAL_ID, OTHERS, TOKEN, type CorpusMessage } from './corpus';

/** The classifier on a corpus of real-world shapes (parsed by mailparser, classified by the pure domain function). */
async function classify(m: CorpusMessage) {
  return classifyMail(await parseMailFacts(m.raw, m.envelope), DOMAINS);
}

test('the corpus covers at least 10 bounce shapes, hard and soft', () => {
  expect(BOUNCES.length).toBeGreaterThanOrEqual(10);
  expect(new Set(BOUNCES.filter((b) => b.expect.kind === 'bounce').map((b) => b.expect.kind === 'bounce' && b.expect.type))).toEqual(
    new Set(['hard', 'soft']),
  );
});

test.each(BOUNCES.map((m) => [m.name, m] as const))('bounce: %s', async (_name, m) => {
  const c = await classify(m);
  expect(c.class).toMatchObject(m.expect);
  expect(c.tokens).toContain(TOKEN);
  if (m.expect.kind === 'bounce') expect(c.class.kind === 'bounce' && c.class.diagnostic).toBeTruthy();
});

test.each(OTHERS.map((m) => [m.name, m] as const))('%s', async (_name, m) => {
  const c = await classify(m);
  expect(c.class).toMatchObject(m.expect);
  expect(c.tokens).toEqual([TOKEN]);
});

test('DSNs and complaints name the original Message-ID from the returned headers; replies from In-Reply-To', async () => {
  expect((await classify(BOUNCES[0])).messageIds).toContain(ORIGINAL_ID);
  expect((await classify(OTHERS[0])).messageIds).toContain(ORIGINAL_ID);
  expect((await classify(OTHERS[OTHERS.length - 1])).messageIds).toEqual([ORIGINAL_ID]);
});

test('a reply without a token is still matched by In-Reply-To; a message with neither is unknown', async () => {
  const raw = (headers: string) =>
    `From: a@example.org\r\nTo: someone@reply.test\r\nSubject: Re: hi\r\n${headers}Content-Type: text/plain\r\n\r\nyes\r\n`;
  const envelope = { mailFrom: 'a@example.org', recipients: ['someone@reply.test'] };
  const matched = classifyMail(await parseMailFacts(raw(`In-Reply-To: ${ORIGINAL_ID}\r\n`), envelope), DOMAINS);
  expect(matched).toMatchObject({ class: { kind: 'reply' }, tokens: [], messageIds: [ORIGINAL_ID] });
  expect(classifyMail(await parseMailFacts(raw(''), envelope), DOMAINS).class.kind).toBe('unknown');
});

test('token addresses: only our two domains and well-formed tokens', () => {
  expect(parseTokenAddress(tokenAddress('bounce', TOKEN, 'bounces.test'), DOMAINS)).toEqual({ kind: 'bounce', token: TOKEN });
  expect(parseTokenAddress(`REPLY+${TOKEN.toUpperCase()}@Reply.Test`, DOMAINS)).toEqual({ kind: 'reply', token: TOKEN });
  expect(parseTokenAddress(`bounce+${TOKEN}@reply.test`, DOMAINS)).toBeNull();
  expect(parseTokenAddress('bounce+not-hex@bounces.test', DOMAINS)).toBeNull();
  expect(acceptsRecipient('anything@bounces.test', DOMAINS)).toBe(true);
  expect(acceptsRecipient('victim@gmail.com', DOMAINS)).toBe(false);
  expect(acceptsRecipient('x@sub.reply.test', DOMAINS)).toBe(false);
});
