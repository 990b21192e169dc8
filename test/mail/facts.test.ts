import fc from 'fast-check';
import { parseMailFacts, partText } from '../../core/mail-facts';
import { FACT_HEADERS } from '../../domain/mail-headers';

/**
 * core/mail-facts.ts decodes a returned message only up to its blank line (the classifier reads
 * its header block only). The reference: decode the first 64 KB, then cut at the first blank line.
 */
function reference(content: Buffer): string {
  const text = content.toString('utf8', 0, Math.min(content.length, 64 * 1024));
  const end = text.search(/\r?\n\r?\n/);
  return end < 0 ? text : text.slice(0, end);
}

test('a returned message part: its header block, as decoding it all and cutting at the blank line gives', () => {
  const piece = fc.constantFrom('\r', '\n', '\r\n', 'From: a@b.test', 'é', '\xff', 'x', ' ', 'Message-ID: <1@a>');
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 30 }), (parts) => {
      const content = Buffer.from(parts.join(''), 'utf8');
      expect(partText('message/rfc822', content)).toBe(reference(content));
      expect(partText('text/rfc822-headers', content)).toBe(reference(content));
    }),
    { numRuns: 5000 },
  );
  // A blank line across the 64 KB cap is not one; a delivery-status part is kept whole.
  const long = Buffer.concat([Buffer.from('a'.repeat(64 * 1024 - 1)), Buffer.from('\n\nrest')]);
  expect(partText('message/rfc822', long) === reference(long)).toBe(true);
  expect(partText('message/rfc822', long).length).toBe(64 * 1024); // up to the cap, its first LF included
  expect(partText('message/delivery-status', Buffer.from('Action: failed\n\nStatus: 5.1.1'))).toBe('Action: failed\n\nStatus: 5.1.1');
});

test('each kept header lands under its own name, the first of a repeat, unfolded; other headers are not kept', async () => {
  const names: string[] = [...FACT_HEADERS];
  expect(new Set(names).size).toBe(19); // 14, and five challenge-response headers (issue 42)
  const lines = names.map((n) => `${n}: value of ${n}`);
  const raw = [...lines, 'Received: from x', 'X-Autoreply: a second one', 'Precedence:\r\n  folded', '', 'body', ''].join('\r\n');
  const f = await parseMailFacts(raw.replace('from: value of from', 'From: <a@b.test>'), { mailFrom: '', recipients: [] });
  expect(Object.keys(f.headers).sort()).toEqual([...names].sort());
  for (const n of names) expect(f.headers[n as keyof typeof f.headers]).toBe(n === 'from' ? '<a@b.test>' : `value of ${n}`);
  const folded = await parseMailFacts('Subject: x\r\nPrecedence: bulk\r\n  list\r\n\r\nbody\r\n', { mailFrom: '', recipients: [] });
  expect(folded.headers).toStrictEqual({ precedence: 'bulk list' });
});
