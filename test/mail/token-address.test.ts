import fc from 'fast-check';
import { parseTokenAddress } from '../../domain/mail-address';
import { agreeOnGenerated } from '../helpers/generated';

/**
 * parseTokenAddress reads an address with string methods, part by part.
 * The reference is the expression it replaced: both must answer the same for every input.
 */
function reference(address: string, domains: { bounce: string; reply: string }) {
  const m = /^(bounce|reply)\+([^@]+)@(.+)$/i.exec(address.trim().replace(/^<|>$/g, ''));
  if (!m) return null;
  const kind = m[1].toLowerCase() as 'bounce' | 'reply';
  const token = m[2].toLowerCase();
  const domain = m[3].toLowerCase().replace(/\.$/, '');
  if (domain !== domains[kind].toLowerCase() || !/^[0-9a-f]{16,64}$/.test(token)) return null;
  return { kind, token };
}

const DOMAINS = { bounce: 'Bounces.Example.test', reply: 'reply.example.test' };
const TOKEN = '0123456789abcdef0123';

test('token addresses: the same answer as the expression on the usual shapes', () => {
  const cases = [
    `reply+${TOKEN}@reply.example.test`,
    `<BOUNCE+${TOKEN.toUpperCase()}@bounces.example.test.>`,
    ` <reply+${TOKEN}@REPLY.example.test> `,
    `reply+${TOKEN}@reply.example.test\n`,
    `reply+${TOKEN}@other.test`,
    `bounce+${TOKEN}@reply.example.test`,
    `reply+@reply.example.test`,
    `reply+${TOKEN}@`,
    `replyx+${TOKEN}@reply.example.test`,
    `\u212Aeply+${TOKEN}@reply.example.test`,
    '<>',
    '',
  ];
  for (const c of cases) expect(parseTokenAddress(c, DOMAINS)).toEqual(reference(c, DOMAINS));
  expect(parseTokenAddress(cases[1], DOMAINS)).toEqual({ kind: 'bounce', token: TOKEN });
});

test('token addresses: the same answer as the expression on generated addresses', () => {
  const piece = fc.constantFrom(
    'reply',
    'REPLY',
    'bounce',
    'Bounce',
    '+',
    '@',
    '<',
    '>',
    ' ',
    '\n',
    '\u2028',
    '.',
    TOKEN,
    'ab',
    'x',
    'reply.example.test',
    'bounces.example.test',
    'BOUNCES.EXAMPLE.TEST',
    '\u212A',
    '\u0130',
  );
  agreeOnGenerated(
    piece,
    (a) => parseTokenAddress(a, DOMAINS),
    (a) => reference(a, DOMAINS),
    { maxLength: 10, numRuns: 20000 },
  );
});

test('token addresses: the same answer as the expression on near-valid addresses, part by part', () => {
  const part = (...xs: string[]) => fc.constantFrom(...xs);
  const address = fc.tuple(
    part('', ' ', '<', '<<', '\t'),
    part('reply', 'REPLY', 'Bounce', 'bounce', 'bounc', 'replies', '\u212Aeply'),
    part('+', '++', '', '-'),
    part(TOKEN, TOKEN.toUpperCase(), '', 'xyz', `${TOKEN}@`, '0123456789abcdef'.repeat(5)),
    part('@', '', '@@'),
    part('reply.example.test', 'bounces.example.test', 'Reply.Example.Test.', 'reply.example.test..', 'x', ''),
    part('', '>', '>>', ' ', '\n', '\u2028'),
  );
  let matched = 0;
  fc.assert(
    fc.property(address, (parts) => {
      const a = parts.join('');
      const ours = parseTokenAddress(a, DOMAINS);
      expect(ours).toEqual(reference(a, DOMAINS));
      if (ours) matched++;
    }),
    { numRuns: 20000 },
  );
  expect(matched).toBeGreaterThan(20); // about 80 of 20,000 are ours: the check above compared real matches too
});
