import fc from 'fast-check';
import { withoutSmtpPrefix, wordAt } from '../../domain/mail-scan';

/**
 * The classifier replaced small case-insensitive expressions (`/report/i`, `/^smtp=/i`…) with
 * lower-casing and plain string search, and with wordAt. The `i` flag without `u` folds only ASCII
 * letters onto ASCII letters; toLowerCase folds more. These tests hold the two claims that make the
 * rewrites exact on this Node: which characters toLowerCase turns into ASCII letters, and wordAt
 * against the `i` flag itself.
 */
test('toLowerCase turns no character into an ASCII letter but that letter, its capital, KELVIN SIGN and İ', () => {
  const odd: string[] = [];
  for (let c = 0; c < 0x10000; c++) {
    const ch = String.fromCharCode(c);
    const lower = ch.toLowerCase();
    for (let i = 0; i < lower.length; i++) {
      const l = lower.charCodeAt(i);
      if (l >= 97 && l <= 122 && !(c === l || c === l - 32)) odd.push(`U+${c.toString(16).toUpperCase()}→${JSON.stringify(lower)}`);
    }
  }
  // KELVIN SIGN becomes k (no word read this way holds a k); İ becomes i + U+0307 (two characters:
  // a word holding an i then reads i, U+0307, which no ASCII word holds).
  expect(odd).toEqual(['U+130→"i̇"', 'U+212A→"k"']);
});

test('wordAt reads a word where the i flag would match it, letters in either case and nothing else folded', () => {
  const escape = (w: string) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const chars = fc.constantFrom('s', 'S', 'ſ', 'k', 'K', '\u212a', 'i', 'I', 'İ', 'ı', 'm', 't', 'p', '=', '\x1d', ':', '.', 'é', 'É');
  fc.assert(
    fc.property(
      fc.array(chars, { maxLength: 8 }),
      fc.array(fc.constantFrom('s', 'k', 'i', 'm', 't', 'p', '=', ':', '.'), { minLength: 1, maxLength: 4 }),
      fc.nat(8),
      (t, w, at) => {
        const text = t.join('');
        const word = w.join('');
        const re = new RegExp(escape(word), 'iy');
        re.lastIndex = at;
        expect(wordAt(text, at, word)).toBe(at <= text.length && re.test(text));
      },
    ),
    { numRuns: 20000 },
  );
  for (const a of ['smtp=a@b.test', 'SMTP=a@b.test', 'Smtp=', 'smtp', 'ſmtp=x', 'smtp\x1dx', 'xsmtp='])
    expect(withoutSmtpPrefix(a)).toBe(a.replace(/^smtp=/i, ''));
});
