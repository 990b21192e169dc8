/**
 * Scanners of notice and report text, written with indexOf and character tests rather than one
 * regular expression per line or per position: a mislabelled report's fields are read from up to
 * 32 KB of raw body, and a notice is searched for addresses. Each gives exactly what the plain
 * expression it replaced gave; test/domain/mail-scan.test.ts holds those references and compares
 * the two on the corpus and on generated text. Pure.
 */

const { charCodeAt } = String.prototype;
/**
 * `text.charCodeAt(at)`, read through String.prototype's own function: the texts scanned here come
 * in many of V8's string shapes (flat, joined, sliced, one or two bytes a character), so a
 * `text.charCodeAt` read at one place sees them all and looks the method up in V8's shared lookup
 * cache at every character, a cache the parse has just filled with its own lookups
 * (docs/throughput.md, "Fifth pass").
 */
const codeAt = (text: string, at: number): number => charCodeAt.call(text, at);

/**
 * Whether `text` holds `word` at `at`, its ASCII letters in either case: what a regular
 * expression's `i` flag matches for them (without the `u` flag it folds no other character onto an
 * ASCII letter). `word` is written in lower case.
 */
export function wordAt(text: string, at: number, word: string): boolean {
  if (at < 0 || at + word.length > text.length) return false;
  for (let i = 0; i < word.length; i++) {
    const c = codeAt(text, at + i);
    const w = codeAt(word, i);
    if (c !== w && !(w >= 97 && w <= 122 && c === w - 32)) return false;
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
function nameChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 45;
}

/** Whether text[from, to) holds a line terminator of a regular expression's `.` other than LF (then, after a value's first character, it is not a field). */
function hasTerminator(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = codeAt(text, i);
    if (c === 13 || c === 0x2028 || c === 0x2029) return true;
  }
  return false;
}

/**
 * Header-style fields (`Name: value`, folded lines joined), grouped into blank-line separated blocks,
 * of text[from, to) (all of it by default). Line by line with indexOf and character tests rather
 * than a split and an expression per line, without copying a line: a mislabelled report's fields
 * are read from up to 32 KB of raw body (test/domain/mail-scan.test.ts holds the reference).
 */
export function fieldBlocks(text: string, from = 0, to = text.length): Array<Record<string, string>> {
  const blocks: Array<Record<string, string>> = [];
  // Prototype-less records are hash tables from the start: field names vary from one report to the next.
  let cur = Object.create(null) as Record<string, string>;
  let empty = true;
  let last = '';
  for (let start = from; start <= to;) {
    const found = text.indexOf('\n', start);
    const nl = found < to ? found : -1;
    const end = nl < 0 ? to : nl;
    // CRLF ends a line as LF does; a lone CR stays part of it.
    const lineEnd = nl > start && codeAt(text, nl - 1) === 13 ? nl - 1 : end;
    const lineStart = start;
    start = end + 1;
    if (blank(text, lineStart, lineEnd)) {
      if (!empty) blocks.push(cur);
      cur = Object.create(null) as Record<string, string>;
      empty = true;
      last = '';
      continue;
    }
    const first = codeAt(text, lineStart);
    if (last && (first === 32 || first === 9)) {
      cur[last] += ` ${text.slice(lineStart, lineEnd).trim()}`;
      continue;
    }
    // A field: a name, then a colon (the line's first character that cannot be in a name).
    let colon = lineStart;
    while (colon < lineEnd && nameChar(codeAt(text, colon))) colon++;
    if (colon === lineStart || colon === lineEnd || codeAt(text, colon) !== 58) continue;
    // The value without the white space around it (as trimStart, then trimEnd).
    let valueStart = colon + 1;
    while (valueStart < lineEnd && isWhite(codeAt(text, valueStart))) valueStart++;
    if (hasTerminator(text, valueStart, lineEnd)) continue;
    let valueEnd = lineEnd;
    while (valueEnd > valueStart && isWhite(codeAt(text, valueEnd - 1))) valueEnd--;
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
  for (let i = from; i < to; i++) if (!isWhite(codeAt(text, i))) return false;
  return true;
}

/** String.prototype.trim's white space and line ends. */
export const WHITE: ReadonlySet<number> = new Set(
  [...'\t\n\v\f\r \u00a0\u1680\u2028\u2029\u202f\u205f\u3000\ufeff']
    .map((c) => c.charCodeAt(0))
    .concat(Array.from({ length: 11 }, (_, i) => 0x2000 + i)),
);

/** Whether a character is in WHITE: tested without the set below U+00A0 (test/domain/mail-scan.test.ts checks all 65,536). */
export function isWhite(c: number): boolean {
  return c <= 32 ? c === 32 || (c >= 9 && c <= 13) : c >= 0xa0 && WHITE.has(c);
}

/** Characters after which `^` (flag m) matches: LF, CR, U+2028, U+2029. */
const LINE_END: ReadonlySet<number> = new Set([10, 13, 0x2028, 0x2029]);

/**
 * Where the next line starting with `name:` (any case; `name` written in lower case) begins, from
 * `from` (-1: none): where `/^name:/gim` finds it, looked for from each `:` rather than tried at
 * every position or in a lower-cased copy of the text (wordAt folds case as the `i` flag does).
 */
function nextFieldLine(text: string, name: string, from: number): number {
  for (let colon = text.indexOf(':', from + name.length); colon >= 0; colon = text.indexOf(':', colon + 1)) {
    const at = colon - name.length;
    if (wordAt(text, at, name) && (at === 0 || LINE_END.has(codeAt(text, at - 1)))) return at;
  }
  return -1;
}

const MESSAGE_ID = /<[^<>\s]+@[^<>\s]+>/g;
/** A Message-ID field's value, folded lines included, from where its line starts (sticky). */
const MESSAGE_ID_FIELD_AT = /message-id:[ \t]*(.*(?:\r?\n[ \t].*)*)/iy;

/**
 * The ids (`<left@right>`) of the Message-ID fields of a header block, in order: what
 * `/^message-id:[ \t]*(.*(?:\r?\n[ \t].*)*)/gim` then `/<[^<>\s]+@[^<>\s]+>/g` on each value read,
 * tried only where such a line starts (test/domain/mail-scan.test.ts compares the two).
 */
export function messageIdFields(text: string): string[] {
  const out: string[] = [];
  for (let at = nextFieldLine(text, 'message-id', 0); at >= 0; at = nextFieldLine(text, 'message-id', MESSAGE_ID_FIELD_AT.lastIndex)) {
    MESSAGE_ID_FIELD_AT.lastIndex = at;
    const value = MESSAGE_ID_FIELD_AT.exec(text)?.[1] ?? '';
    MESSAGE_ID.lastIndex = 0;
    for (let m = MESSAGE_ID.exec(value); m; m = MESSAGE_ID.exec(value)) out.push(m[0]);
  }
  MESSAGE_ID.lastIndex = 0;
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
/** ADDRESS_STOP and white space below U+0080, by character code. */
const STOP_ASCII = Uint8Array.from({ length: 128 }, (_, c) => (ADDRESS_STOP.has(c) || isWhite(c) ? 1 : 0));
const stop = (c: number) => (c < 128 ? STOP_ASCII[c] === 1 : isWhite(c));
const letter = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90);

/**
 * The address one word of a notice holds (a word runs between white space and `<>"'(),;:[]`), or
 * null: from the word's start to the end of its last `.` followed by two letters or more, when an
 * `@` stands after the word's first character and at least two characters before that dot.
 */
function addressOfWord(text: string, start: number, end: number): string | null {
  let dot = -1;
  for (let q = end - 3; q > start; q--) {
    if (codeAt(text, q) === 46 && letter(codeAt(text, q + 1)) && letter(codeAt(text, q + 2))) {
      dot = q;
      break;
    }
  }
  if (dot < 0) return null;
  const at = text.lastIndexOf('@', dot - 2);
  if (at < start + 1) return null;
  let stopAt = dot + 1;
  while (stopAt < end && letter(codeAt(text, stopAt))) stopAt++;
  return text.slice(start, stopAt);
}

/**
 * The first address of a text, in order, that `accept` takes (null: none). An address is what the
 * expression `(?<![^\s<>"'(),;:[\]])<?([^\s<>"'(),;:[\]]+@[^\s<>"'(),;:[\]]+\.[a-z]{2,})>?` with
 * flags `gi` captures: at most one per word, found from each `@` rather than tried at every position.
 */
export function firstAddress(text: string, accept: (address: string, start: number) => boolean): string | null {
  let done = 0;
  for (let at = text.indexOf('@'); at >= 0; at = text.indexOf('@', Math.max(at + 1, done))) {
    let start = at;
    while (start > 0 && !stop(codeAt(text, start - 1))) start--;
    let end = at + 1;
    while (end < text.length && !stop(codeAt(text, end))) end++;
    done = end;
    const address = addressOfWord(text, start, end);
    if (address !== null && accept(address, start)) return address;
  }
  return null;
}

/** The header names whose lines a notice quotes from the returned message (its own From, To…), then a word boundary. */
const QUOTED_NAME_AT = /(from|to|cc|reply-to|sender|return-path|errors-to|message-id|subject|received|by|for)\b/iy;

/**
 * Whether `at` stands on a quoted header line of a notice: what the expression
 * `^\s*(from|to|…|for)\b[^\n]*$` (flags `gim`) would remove. Its line (up to LF) holds a start
 * (the line's, or one after CR, U+2028 or U+2029, as `^` reads them) whose first character that
 * is not white space, at or before `at`, begins one of those names. Asked for the few addresses a
 * notice holds rather than run over all of it.
 */
export function inQuotedHeader(text: string, at: number): boolean {
  const line = text.lastIndexOf('\n', at - 1) + 1;
  for (let start = line; start <= at;) {
    let first = start;
    while (first < at && isWhite(codeAt(text, first))) first++;
    QUOTED_NAME_AT.lastIndex = first;
    if (QUOTED_NAME_AT.test(text)) return true;
    // The next start: after the next CR, U+2028 or U+2029 before `at`.
    let next = start;
    while (next < at && !LINE_START_AFTER.has(codeAt(text, next))) next++;
    start = next + 1;
  }
  return false;
}

/** CR, U+2028, U+2029: `^` (flag m) matches after them as after LF. */
const LINE_START_AFTER: ReadonlySet<number> = new Set([13, 0x2028, 0x2029]);
