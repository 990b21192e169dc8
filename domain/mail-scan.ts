/**
 * Scanners of notice and report text: report fields, Action blocks, Message-ID fields, the
 * addresses a notice names and the header lines it quotes. They walk the text with indexOf and
 * character tests, and read only the lines they need: a mislabelled report's fields are read from
 * up to 32 KB of raw body, and the Action blocks of a DSN are a few lines of a text that may also
 * hold the whole returned message. Each gives exactly what the plain expression named in its
 * comment gives; test/domain/mail-scan.test.ts compares the two on the corpus and on generated
 * text. Pure.
 */

/** The character codes the scanners test for. */
const TAB = '\t'.charCodeAt(0);
const LF = '\n'.charCodeAt(0);
const CR = '\r'.charCodeAt(0);
const SPACE = ' '.charCodeAt(0);
const HYPHEN = '-'.charCodeAt(0);
const DOT = '.'.charCodeAt(0);
const COLON = ':'.charCodeAt(0);
const NO_BREAK_SPACE = 0xa0;
const LINE_SEPARATOR = 0x2028;
const PARAGRAPH_SEPARATOR = 0x2029;

const isLower = (c: number) => c >= 'a'.charCodeAt(0) && c <= 'z'.charCodeAt(0);
const isUpper = (c: number) => c >= 'A'.charCodeAt(0) && c <= 'Z'.charCodeAt(0);
const isDigit = (c: number) => c >= '0'.charCodeAt(0) && c <= '9'.charCodeAt(0);
const isLetter = (c: number) => isLower(c) || isUpper(c);
/** From a lower-case ASCII letter to its upper case. */
const UPPER_CASE_OFFSET = 'a'.charCodeAt(0) - 'A'.charCodeAt(0);

/**
 * Whether `text` holds `word` at `at`, its ASCII letters in either case: what a regular
 * expression's `i` flag matches for them (without the `u` flag it folds no other character onto an
 * ASCII letter). `word` is written in lower case.
 */
export function wordAt(text: string, at: number, word: string): boolean {
  if (at < 0 || at + word.length > text.length) return false;
  for (let i = 0; i < word.length; i++) {
    const c = text.charCodeAt(at + i);
    const w = word.charCodeAt(i);
    if (c !== w && !(isLower(w) && c === w - UPPER_CASE_OFFSET)) return false;
  }
  return true;
}

/** `text` without a leading `smtp=` (any case), as `.replace(/^smtp=/i, '')`. */
export function withoutSmtpPrefix(text: string): string {
  return wordAt(text, 0, 'smtp=') ? text.slice(5) : text;
}

/**
 * A part holding a returned message or its headers, as `/rfc822|headers/i`: the facts keep its
 * header block only (core/mail-facts.ts imports this), the classifier reads our tokens and ids there.
 */
export function returnedPart(contentType: string): boolean {
  const type = contentType.toLowerCase();
  return type.includes('rfc822') || type.includes('headers');
}

/** `A-Z a-z 0-9 -`: the characters of a field name. */
const nameChar = (c: number) => isLetter(c) || isDigit(c) || c === HYPHEN;

/** CR, U+2028, U+2029: the line terminators of a regular expression's `.` and `^` (flag m) other than LF. */
const otherLineEnd = (c: number) => c === CR || c === LINE_SEPARATOR || c === PARAGRAPH_SEPARATOR;

/** Whether text[from, to) holds a line terminator other than LF (then, after a value's first character, it is not a field). */
function hasTerminator(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (otherLineEnd(text.charCodeAt(i))) return true;
  return false;
}

/**
 * Header-style fields (`Name: value`, folded lines joined), grouped into blank-line separated blocks,
 * of text[from, to) (all of it by default): what splitting at line ends and reading each line with
 * `/^([A-Za-z0-9-]+):\s*(.*)$/` gives (test/domain/mail-scan.test.ts holds that reference).
 */
export function fieldBlocks(text: string, from = 0, to = text.length): Array<Record<string, string>> {
  const blocks: Array<Record<string, string>> = [];
  // Prototype-less records: a field named `constructor` or `__proto__` is a field like any other.
  let cur = Object.create(null) as Record<string, string>;
  let empty = true;
  let last = '';
  for (let start = from; start <= to;) {
    const found = text.indexOf('\n', start);
    const nl = found < to ? found : -1;
    const end = nl < 0 ? to : nl;
    // CRLF ends a line as LF does; a lone CR stays part of it.
    const lineEnd = nl > start && text.charCodeAt(nl - 1) === CR ? nl - 1 : end;
    const lineStart = start;
    start = end + 1;
    if (blank(text, lineStart, lineEnd)) {
      if (!empty) blocks.push(cur);
      cur = Object.create(null) as Record<string, string>;
      empty = true;
      last = '';
      continue;
    }
    const first = text.charCodeAt(lineStart);
    if (last && (first === SPACE || first === TAB)) {
      cur[last] += ` ${text.slice(lineStart, lineEnd).trim()}`;
      continue;
    }
    // A field: a name, then a colon (the line's first character that cannot be in a name).
    let colon = lineStart;
    while (colon < lineEnd && nameChar(text.charCodeAt(colon))) colon++;
    if (colon === lineStart || colon === lineEnd || text.charCodeAt(colon) !== COLON) continue;
    // The value without the white space around it (as trimStart, then trimEnd).
    let valueStart = colon + 1;
    while (valueStart < lineEnd && isWhite(text.charCodeAt(valueStart))) valueStart++;
    if (hasTerminator(text, valueStart, lineEnd)) continue;
    let valueEnd = lineEnd;
    while (valueEnd > valueStart && isWhite(text.charCodeAt(valueEnd - 1))) valueEnd--;
    last = text.slice(lineStart, colon).toLowerCase();
    cur[last] ??= text.slice(valueStart, valueEnd);
    empty = false;
  }
  if (!empty) blocks.push(cur);
  return blocks;
}

/** Where the line holding `at` starts, with LF as the only line end (as fieldBlocks reads lines). */
const lineStart = (text: string, at: number) => (at <= 0 ? 0 : text.lastIndexOf('\n', at - 1) + 1);

/** Whether text[from, to) is blank: white space only (a line fieldBlocks ends a block at). */
function blank(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!isWhite(text.charCodeAt(i))) return false;
  return true;
}

/** String.prototype.trim's white space and line ends. */
export const WHITE: ReadonlySet<number> = new Set(
  [...'\t\n\v\f\r \u00a0\u1680\u2028\u2029\u202f\u205f\u3000\ufeff']
    .map((c) => c.charCodeAt(0))
    .concat(Array.from({ length: 11 }, (_, i) => 0x2000 + i)),
);

/** Whether a character is in WHITE: space, TAB to CR, or one of the set from U+00A0 (test/domain/mail-scan.test.ts checks all 65,536). */
export function isWhite(c: number): boolean {
  return c === SPACE || (c >= TAB && c <= CR) || (c >= NO_BREAK_SPACE && WHITE.has(c));
}

/**
 * Where the next line starting with `name:` (any case; `name` written in lower case) begins, from
 * `from` (-1: none): where `/^name:/gim` finds it. Looked for from each `:` (wordAt folds case as
 * the `i` flag does), so that a long text is not tried at every position.
 */
function nextFieldLine(text: string, name: string, from: number): number {
  for (let colon = text.indexOf(':', from + name.length); colon >= 0; colon = text.indexOf(':', colon + 1)) {
    const at = colon - name.length;
    if (wordAt(text, at, name) && startsLine(text, at)) return at;
  }
  return -1;
}

/** Whether `^` (flag m) matches at `at`: at the start of the text, or after LF, CR, U+2028 or U+2029. */
const startsLine = (text: string, at: number) => at === 0 || text.charCodeAt(at - 1) === LF || otherLineEnd(text.charCodeAt(at - 1));

/** A Message-ID field from the start of the text: its value, folded lines included. */
const MESSAGE_ID_FIELD = /^message-id:[ \t]*(.*(?:\r?\n[ \t].*)*)/i;

/**
 * The ids (`<left@right>`) of the Message-ID fields of a header block, in order: what
 * `/^message-id:[ \t]*(.*(?:\r?\n[ \t].*)*)/gim` then `/<[^<>\s]+@[^<>\s]+>/g` on each value read,
 * tried only where such a line starts (test/domain/mail-scan.test.ts compares the two).
 */
export function messageIdFields(text: string): string[] {
  const out: string[] = [];
  let at = nextFieldLine(text, 'message-id', 0);
  while (at >= 0) {
    const field = MESSAGE_ID_FIELD.exec(text.slice(at));
    // The expression always matches where nextFieldLine found `message-id:`.
    if (!field) break;
    out.push(...(field[1].match(/<[^<>\s]+@[^<>\s]+>/g) ?? []));
    at = nextFieldLine(text, 'message-id', at + field[0].length);
  }
  return out;
}

/**
 * The blocks of fieldBlocks that hold an `Action:` line, without reading the rest of the text: a
 * DSN's recipient blocks are a few lines of a text that may hold the notice and the returned
 * message. The same blocks, in the same order (test/domain/mail-scan.test.ts checks it); null when
 * no line starts with `Action:` at all.
 */
export function actionBlocks(text: string): Array<Record<string, string>> | null {
  let out: Array<Record<string, string>> | null = null;
  let done = 0;
  for (let at = nextFieldLine(text, 'action', 0); at >= 0; at = nextFieldLine(text, 'action', done)) {
    // Back to the line after the previous blank line, forward to the next blank line.
    let start = lineStart(text, at);
    while (start > 0) {
      const prev = lineStart(text, start - 1);
      if (blank(text, prev, start)) break;
      start = prev;
    }
    let end = text.indexOf('\n', at);
    while (end >= 0) {
      const next = text.indexOf('\n', end + 1);
      if (blank(text, end + 1, next < 0 ? text.length : next)) break;
      end = next;
    }
    done = end < 0 ? text.length : end + 1;
    (out ??= []).push(...fieldBlocks(text, start, done));
  }
  return out;
}

/** `<>"'(),;:[]`: what ends an address in a notice, besides white space. */
const ADDRESS_STOP: ReadonlySet<number> = new Set([...'<>"\'(),;:[]'].map((c) => c.charCodeAt(0)));
const stop = (c: number) => ADDRESS_STOP.has(c) || isWhite(c);

/**
 * The address one word of a notice holds (a word runs between white space and `<>"'(),;:[]`), or
 * null: from the word's start to the end of its last `.` followed by two letters or more, when an
 * `@` stands after the word's first character and at least two characters before that dot.
 */
function addressOfWord(text: string, start: number, end: number): string | null {
  let dot = -1;
  for (let q = end - 3; q > start; q--) {
    if (text.charCodeAt(q) === DOT && isLetter(text.charCodeAt(q + 1)) && isLetter(text.charCodeAt(q + 2))) {
      dot = q;
      break;
    }
  }
  if (dot < 0) return null;
  const at = text.lastIndexOf('@', dot - 2);
  if (at < start + 1) return null;
  let stopAt = dot + 1;
  while (stopAt < end && isLetter(text.charCodeAt(stopAt))) stopAt++;
  return text.slice(start, stopAt);
}

/**
 * The first address of a text, in order, that `accept` takes (null: none). An address is what the
 * expression `(?<![^\s<>"'(),;:[\]])<?([^\s<>"'(),;:[\]]+@[^\s<>"'(),;:[\]]+\.[a-z]{2,})>?` with
 * flags `gi` captures: at most one per word, found from each `@` (a notice is not tried at every position).
 */
export function firstAddress(text: string, accept: (address: string, start: number) => boolean): string | null {
  let done = 0;
  for (let at = text.indexOf('@'); at >= 0; at = text.indexOf('@', Math.max(at + 1, done))) {
    let start = at;
    while (start > 0 && !stop(text.charCodeAt(start - 1))) start--;
    let end = at + 1;
    while (end < text.length && !stop(text.charCodeAt(end))) end++;
    done = end;
    const address = addressOfWord(text, start, end);
    if (address !== null && accept(address, start)) return address;
  }
  return null;
}

/** The header names whose lines a notice quotes from the returned message (its own From, To…). */
const QUOTED_NAMES = [
  'from',
  'to',
  'cc',
  'reply-to',
  'sender',
  'return-path',
  'errors-to',
  'message-id',
  'subject',
  'received',
  'by',
  'for',
];

/** `A-Z a-z 0-9 _`: the characters of a word, for `\b` (no `u` flag). */
const wordChar = (c: number) => isLetter(c) || isDigit(c) || c === '_'.charCodeAt(0);

/** Whether one of QUOTED_NAMES (any case) stands at `at`, then a word boundary. */
const quotedNameAt = (text: string, at: number) =>
  QUOTED_NAMES.some((name) => wordAt(text, at, name) && !wordChar(text.charCodeAt(at + name.length)));

/**
 * Whether `at` stands on a quoted header line of a notice: what the expression
 * `^\s*(from|to|…|for)\b[^\n]*$` (flags `gim`) would remove. Its line (up to LF) holds a start
 * (the line's, or one after CR, U+2028 or U+2029, as `^` reads them) whose first character that
 * is not white space, at or before `at`, begins one of those names. Asked for the few addresses a
 * notice holds, so the notice is not read line by line.
 */
export function inQuotedHeader(text: string, at: number): boolean {
  const line = text.lastIndexOf('\n', at - 1) + 1;
  for (let start = line; start <= at;) {
    let first = start;
    while (first < at && isWhite(text.charCodeAt(first))) first++;
    if (quotedNameAt(text, first)) return true;
    // The next start: after the next CR, U+2028 or U+2029 before `at`.
    let next = start;
    while (next < at && !otherLineEnd(text.charCodeAt(next))) next++;
    start = next + 1;
  }
  return false;
}
