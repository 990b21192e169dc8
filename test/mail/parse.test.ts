import { simpleParser } from 'mailparser';
import { parseMail, PARSE_OPTIONS as OPTIONS } from '../../core/mail-parse';
import { loadCorpus } from './corpus/sources';

/**
 * core/mail-parse.ts reads mailparser's MailParser stream into one object shape instead of calling
 * simpleParser. Differential test: on every message of the real corpus, each value the facts read
 * is what simpleParser gives for it, and the parts kept are simpleParser's attachments that `keep`
 * takes, in order, byte for byte.
 */
const report = (contentType: string) => /^(message\/|text\/rfc822-headers)/i.test(contentType);

test('on the real corpus, every value read is the one simpleParser gives', async () => {
  const corpus = loadCorpus();
  expect(corpus.length).toBeGreaterThanOrEqual(250);
  let parts = 0;
  for (const m of corpus) {
    const mine = await parseMail(m.raw, report);
    const theirs = await simpleParser(m.raw, OPTIONS);
    const where = `${m.key}`;
    expect([where, mine.headerLines]).toEqual([where, theirs.headerLines ?? []]);
    expect([where, mine.text]).toEqual([where, theirs.text ?? '']);
    expect([where, mine.html]).toEqual([where, typeof theirs.html === 'string' ? theirs.html : '']);
    expect([where, mine.subject]).toEqual([where, theirs.subject ?? '']);
    expect([where, mine.from]).toEqual([where, theirs.from]);
    expect([where, mine.inReplyTo]).toEqual([where, theirs.inReplyTo]);
    expect([where, mine.references]).toEqual([where, theirs.references]);
    const kept = (theirs.attachments ?? []).filter((a) => report(a.contentType));
    expect([where, mine.attachments.map((a) => a.contentType)]).toEqual([where, kept.map((a) => a.contentType)]);
    mine.attachments.forEach((a, i) => expect(a.content.equals(kept[i].content)).toBe(true));
    parts += kept.length;
  }
  expect(parts).toBeGreaterThanOrEqual(80); // the corpus's returned messages and headers were compared
});

test('an attachment the facts do not read is read past, not kept; the report part after it is kept', async () => {
  const pdf = Buffer.alloc(3 * 1024 * 1024, 7)
    .toString('base64')
    .replace(/.{76}/g, '$&\r\n');
  const raw = [
    'From: someone@example.test',
    'Subject: =?utf-8?q?Caf=C3=A9?=',
    'In-Reply-To: <a@b.test>',
    'Content-Type: multipart/mixed; boundary="b"',
    '',
    '--b',
    'Content-Type: text/plain',
    '',
    'Hello.',
    '--b',
    'Content-Type: application/pdf',
    'Content-Transfer-Encoding: base64',
    'Content-Disposition: attachment; filename="big.pdf"',
    '',
    pdf,
    '--b',
    'Content-Type: text/rfc822-headers',
    '',
    'Message-ID: <ours@example.test>',
    '',
    '--b--',
    '',
  ].join('\r\n');
  const mine = await parseMail(raw, report);
  expect(mine.text.trim()).toBe('Hello.');
  expect(mine.subject).toBe('Café');
  expect(mine.inReplyTo).toBe('<a@b.test>');
  expect(mine.attachments.map((a) => a.contentType)).toEqual(['text/rfc822-headers']);
  expect(mine.attachments[0].content.toString()).toContain('Message-ID: <ours@example.test>');
  const theirs = await simpleParser(raw, OPTIONS);
  expect(theirs.attachments?.map((a) => a.contentType)).toEqual(['application/pdf', 'text/rfc822-headers']); // simpleParser keeps the PDF too
});

test('a message with no headers or body parses to empty values', async () => {
  const mine = await parseMail('', report);
  expect(mine).toMatchObject({ text: '', html: '', subject: '', attachments: [] });
});
