import { parseMailFacts } from '../../core/mail-facts';
import { alternationSource } from '../../domain/alternation';
import { PHRASES } from '../../domain/mail-wording';
import { envelopeOf, loadCorpus } from '../mail/corpus/sources';

/**
 * domain/alternation.ts factors the mail word lists into tries for speed. The promise it makes:
 * the factored expression matches at exactly the positions where the plain alternation does.
 */

/** Every position where some match of `re` starts. */
function starts(re: RegExp, text: string): number[] {
  const g = new RegExp(re.source, 'g');
  const out: number[] = [];
  for (let m = g.exec(text); m; m = g.exec(text)) {
    out.push(m.index);
    g.lastIndex = m.index + 1;
  }
  return out;
}

test('common leading characters are factored out; groups and small classes in front are spelled out', () => {
  expect(alternationSource(['user unknown', 'unknown user', 'unrouteable'])).toBe('u(?:ser unknown|n(?:known user|routeable))');
  expect(alternationSource(['(user|mailbox) unknown', 'mailbox full'])).toBe('user unknown|mailbox (?:unknown|full)');
  expect(alternationSource(['[ée]chec', 'echo'])).toBe('échec|ech(?:ec|o)');
  // a quantifier after the first character, group or class keeps the phrase whole
  expect(alternationSource(['exceeds? the', 'ex(ceed)?', '[ée]?chec', 'e'])).toBe('e(?:x(?:ceeds? the|(ceed)?)|)|[ée]?chec');
  // a lookaround is not a group to spell out; a top-level | inside a phrase splits it
  expect(alternationSource(['(?!x)ab', 'ab|ac'])).toBe('a(?:b|c)|(?!x)ab');
});

test('every mail word list matches where its plain alternation does, on every corpus message and every phrase', async () => {
  const texts: string[] = [];
  for (const m of loadCorpus()) {
    const f = await parseMailFacts(m.raw, envelopeOf(m.raw, 'reply+0123456789abcdef@reply.test'));
    texts.push(`${f.subject}\n${f.text}`.toLowerCase(), (f.rawBody ?? '').toLowerCase());
  }
  expect(PHRASES.size).toBeGreaterThanOrEqual(7);
  let compared = 0;
  for (const [factored, phrases] of PHRASES) {
    const plain = new RegExp(phrases.join('|'));
    expect(factored.source).not.toBe(plain.source);
    // each phrase that is plain text (after a leading ^), at the start and inside a sentence
    const literal = phrases
      .map((p) => p.replace(/^\^/, ''))
      .filter((p) => !/[\\()[\]{}.?*+|^$]/.test(p))
      .flatMap((p) => [`${p} and ${p.slice(1)}`, `see: ${p}, then ${p.slice(1)} ${p}.`]);
    expect(literal.length).toBeGreaterThan(0);
    for (const text of [...texts, ...literal]) {
      expect(starts(factored, text)).toEqual(starts(plain, text));
      compared++;
    }
  }
  expect(compared).toBeGreaterThan(PHRASES.size * 400);
});
