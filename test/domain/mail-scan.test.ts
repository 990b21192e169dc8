import fc from 'fast-check';
import { actionBlocks, fieldBlocks, firstAddress, inQuotedHeader, isWhite, messageIdFields, WHITE } from '../../domain/mail-scan';
import { agreeOnGenerated } from '../helpers/generated';
import { loadCorpus } from '../mail/corpus/sources';

/**
 * domain/mail-scan.ts reads report fields line by line with indexOf, and finds a notice's
 * addresses from each `@`, rather than trying an expression at every position. The references
 * here are the plain readings they replaced (split at LF after CRLF → LF and one expression per
 * line; one expression tried at every position): both must give the same answer on every input.
 */
function reference(text: string): Array<Record<string, string>> {
  const blocks: Array<Record<string, string>> = [];
  let cur: Record<string, string> = Object.create(null) as Record<string, string>;
  let empty = true;
  let last = '';
  for (const line of text.replace(/\r\n/g, '\n').split('\n')) {
    if (line.trim() === '') {
      if (!empty) blocks.push(cur);
      cur = Object.create(null) as Record<string, string>;
      empty = true;
      last = '';
    } else if (last && (line[0] === ' ' || line[0] === '\t')) {
      cur[last] += ` ${line.trim()}`;
    } else {
      const m = /^([A-Za-z0-9-]+):\s*(.*)$/.exec(line);
      if (m) {
        last = m[1].toLowerCase();
        cur[last] ??= m[2].trim();
        empty = false;
      }
    }
  }
  if (!empty) blocks.push(cur);
  return blocks;
}

/** Records compared as plain objects (both sides are prototype-less). */
const plain = (blocks: Array<Record<string, string>>) => blocks.map((b) => ({ ...b }));

/** `mine` and `reference` give the same list on every corpus message (read as Latin-1); the number of items found. */
function agreeOnCorpus(mine: (text: string) => unknown[], reference: (text: string) => unknown[]): number {
  let found = 0;
  for (const m of loadCorpus()) {
    const text = m.raw.toString('latin1');
    const theirs = reference(text);
    expect(mine(text)).toEqual(theirs);
    found += theirs.length;
  }
  return found;
}

test('report fields (all, and those with an Action): the same blocks as the plain reading on every corpus message', () => {
  let compared = 0;
  for (const m of loadCorpus()) {
    const text = m.raw.toString('latin1');
    expect(plain(fieldBlocks(text))).toEqual(plain(reference(text)));
    expect(plain((actionBlocks(text) ?? []).filter((b: Record<string, string>) => b.action))).toEqual(
      plain(reference(text).filter((b: Record<string, string>) => b.action)),
    );
    compared++;
  }
  expect(compared).toBeGreaterThanOrEqual(150);
});

test('report fields: the same blocks as the plain reading on generated text (CR, LF, folds, odd spaces, colons)', () => {
  const piece = fc.constantFrom(
    'Action',
    'ACTION:',
    'İ',
    '\u212a',
    'action: failed',
    'Status',
    'final-Recipient',
    'X_Bad',
    '-',
    'a1',
    ':',
    ': ',
    ' ',
    '\t',
    '\r',
    '\n',
    '\r\n',
    '\u2028',
    '\u00a0',
    '\u3000',
    'failed',
    '5.1.1',
    ' (comment)',
    'rfc822; a@b.test',
    '',
  );
  const withAction = (blocks: Array<Record<string, string>>) => plain(blocks.filter((b) => b.action));
  agreeOnGenerated(
    piece,
    (text) => plain(fieldBlocks(text)),
    (text) => plain(reference(text)),
    { maxLength: 40, numRuns: 5000 },
  );
  agreeOnGenerated(
    piece,
    (text) => withAction(actionBlocks(text) ?? []),
    (text) => withAction(reference(text)),
    { maxLength: 40, numRuns: 5000 },
  );
});

/** Every address the plain expression finds, in order. */
function referenceAddresses(text: string): string[] {
  const ADDRESS = /(?<![^\s<>"'(),;:[\]])<?([^\s<>"'(),;:[\]]+@[^\s<>"'(),;:[\]]+\.[a-z]{2,})>?/gi;
  return [...text.matchAll(ADDRESS)].map((m) => m[1]);
}

function allAddresses(text: string): string[] {
  const out: string[] = [];
  firstAddress(text, (a) => {
    out.push(a);
    return false;
  });
  return out;
}

test('notice addresses: the same as the plain expression on every corpus message, and the first accepted one', () => {
  let found = 0;
  for (const m of loadCorpus()) {
    const text = m.raw.toString('latin1');
    const theirs = referenceAddresses(text);
    expect(allAddresses(text)).toEqual(theirs);
    expect(firstAddress(text, (a) => !a.startsWith('p'))).toBe(theirs.find((a) => !a.startsWith('p')) ?? null);
    found += theirs.length;
  }
  expect(found).toBeGreaterThan(1000);
});

test('notice addresses: the same as the plain expression on generated text (@, dots, brackets, odd spaces)', () => {
  const piece = fc.constantFrom(
    '@',
    '@@',
    '.',
    '..',
    '.c',
    '.com',
    '.Co',
    'a',
    'user',
    'x1',
    '-',
    '_',
    '+',
    '=',
    '<',
    '>',
    '"',
    "'",
    '(',
    ')',
    ',',
    ';',
    ':',
    '[',
    ']',
    ' ',
    '\t',
    '\n',
    '\r',
    '\u00a0',
    '\u2028',
    '\u3000',
    '\ufeff',
    'é',
    '.é',
    '.1a',
    'smtp=',
  );
  agreeOnGenerated(piece, allAddresses, referenceAddresses);
});

test('Action blocks: null exactly when no line starts with Action:', () => {
  expect(actionBlocks('Reporting-MTA: dns; a.test\n\nStatus: 5.1.1')).toBeNull();
  expect(actionBlocks('Transaction: done\nreaction: none')).toBeNull(); // inside a line: not one that starts with it
  expect(actionBlocks('x\rAction: failed')).toEqual([]); // a line start for the expression, not a field for fieldBlocks
  expect(actionBlocks('Status: 5.1.1\nACTION: failed\n')?.map((b) => ({ ...b }))).toEqual([{ status: '5.1.1', action: 'failed' }]);
});

/** The addresses left once the quoted header lines are removed, as the classifier did with an expression. */
function referenceUnquoted(text: string): string[] {
  const QUOTED_HEADER = /^\s*(from|to|cc|reply-to|sender|return-path|errors-to|message-id|subject|received|by|for)\b[^\n]*$/gim;
  return referenceAddresses(text.replace(QUOTED_HEADER, ''));
}

function unquoted(text: string): string[] {
  const out: string[] = [];
  firstAddress(text, (a, start) => {
    if (!inQuotedHeader(text, start)) out.push(a);
    return false;
  });
  return out;
}

test('quoted header lines: the addresses left are those the expression leaves, on the corpus and on generated text', () => {
  expect(agreeOnCorpus(unquoted, referenceUnquoted)).toBeGreaterThan(500);
  const piece = fc.constantFrom(
    'From:',
    'to ',
    'TO:',
    'Received:',
    'for',
    'fore',
    'by',
    'cc\t',
    'Reply-To:',
    'x',
    ' ',
    '\t',
    '\n',
    '\r',
    '\r\n',
    '\u2028',
    '\u00a0',
    'a@b.co',
    '<c@d.org>',
    'from@e.net',
    ': ',
    '\n\n',
  );
  agreeOnGenerated(piece, unquoted, referenceUnquoted);
});

test('white space: isWhite is the set WHITE, and both are what trim removes, for every UTF-16 code unit', () => {
  let white = 0;
  for (let c = 0; c <= 0xffff; c++) {
    const trimmed = String.fromCharCode(c).trim() === '';
    if (isWhite(c) !== trimmed || WHITE.has(c) !== trimmed)
      throw new Error(`U+${c.toString(16)}: isWhite ${isWhite(c)}, WHITE ${WHITE.has(c)}, trim ${trimmed}`);
    if (trimmed) white++;
  }
  expect(white).toBe(WHITE.size);
});

test('report fields of a range: the same blocks as those of the range cut out', () => {
  const text = 'Reporting-MTA: dns; a.test\r\n\r\nAction: failed\r\nStatus: 5.1.1\r\n folded\nx\rAction: y\n';
  for (let from = 0; from <= text.length; from++)
    for (let to = from; to <= text.length; to++)
      expect(plain(fieldBlocks(text, from, to))).toEqual(plain(fieldBlocks(text.slice(from, to))));
});

/** The plain reading messageIdFields replaced. */
function referenceMessageIds(text: string): string[] {
  const out: string[] = [];
  for (const line of text.matchAll(/^message-id:[ \t]*(.*(?:\r?\n[ \t].*)*)/gim))
    for (const m of line[1].matchAll(/<[^<>\s]+@[^<>\s]+>/g)) out.push(m[0]);
  return out;
}

test('Message-ID fields: the same ids as the plain expressions, on every corpus message and on generated text', () => {
  expect(agreeOnCorpus(messageIdFields, referenceMessageIds)).toBeGreaterThan(200);
  const piece = fc.constantFrom(
    'Message-ID:',
    'message-id: ',
    'MESSAGE-ID:\t',
    'Message-Id',
    'X-Message-ID: <x@y>',
    ':',
    '<a@b.test>',
    '<c@d>',
    '<e@f',
    '@',
    '>',
    ' ',
    '\t',
    '\r',
    '\n',
    '\r\n',
    '\u2028',
    'İ',
    '\u212a',
    'x',
    'References: <g@h>',
  );
  agreeOnGenerated(piece, messageIdFields, referenceMessageIds);
});
