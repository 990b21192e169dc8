/**
 * Hard or soft: what the server said decides it. One table, documented row by row in
 * docs/sequences.md ("Hard or soft"). Pure.
 *
 * Order of evidence: a specific RFC 3463 enhanced status (subject.detail other than the
 * "undefined" X.0.0 / X.n.0 forms), then the notice's own words when they name a full mailbox, a
 * size limit or a loop (a server may answer 550 for a full mailbox), then the generic status
 * class or the SMTP reply code, then the wording alone. Nothing at all: soft (a wrong exit is
 * worse than a late one).
 */
import { DEAD_WORDS, FULL_MAILBOX_WORDS, PERMANENT_WORDS, SOFT_WORDS } from './mail-wording';

export type Severity = 'hard' | 'soft';

export interface StatusRow {
  /** `subject.detail` of an RFC 3463 code, e.g. '1.1'; the class (4 or 5) is the code's first digit. */
  code: string;
  /** What a class-5 code of this row means for the address. Class 4 is always soft. */
  permanent: Severity;
  reason: string;
}

/** The rows that differ from "class 5 hard, class 4 soft", and the dead-address rows that name it. */
export const STATUS_TABLE: readonly StatusRow[] = [
  { code: '1.1', permanent: 'hard', reason: 'bad destination mailbox: the address does not exist' },
  { code: '1.2', permanent: 'hard', reason: 'bad destination system: the domain does not exist or takes no mail' },
  { code: '1.3', permanent: 'hard', reason: 'bad mailbox address syntax' },
  { code: '1.4', permanent: 'hard', reason: 'ambiguous destination mailbox: no single mailbox' },
  { code: '1.6', permanent: 'hard', reason: 'mailbox has moved, no forwarding address' },
  { code: '1.10', permanent: 'hard', reason: 'null MX (RFC 7505): the domain accepts no mail' },
  { code: '2.1', permanent: 'hard', reason: 'mailbox disabled, not accepting messages' },
  { code: '4.4', permanent: 'hard', reason: 'unable to route: no mail server for the domain' },
  { code: '2.2', permanent: 'soft', reason: 'mailbox full: the address exists, it may take mail again' },
  { code: '2.3', permanent: 'soft', reason: 'message longer than the mailbox accepts: about this message, not the address' },
  { code: '3.1', permanent: 'soft', reason: 'mail system full' },
  { code: '3.4', permanent: 'soft', reason: 'message too big for the system: about this message' },
  { code: '4.6', permanent: 'soft', reason: 'routing loop: a fault of the receiving side, the address is not shown dead' },
  { code: '4.7', permanent: 'soft', reason: 'delivery time expired: the sender gave up retrying, the address may be fine' },
  { code: '5.3', permanent: 'soft', reason: 'too many recipients: about this message' },
];

const BY_CODE = new Map(STATUS_TABLE.map((r) => [r.code, r]));

/** SMTP reply codes (RFC 5321) that count when no enhanced status is given. */
export const SMTP_CODES: Readonly<Record<string, Severity>> = {
  '421': 'soft',
  '450': 'soft',
  '451': 'soft',
  '452': 'soft',
  '454': 'soft',
  '521': 'hard',
  '550': 'hard',
  '551': 'hard',
  '552': 'soft', // exceeded storage allocation: a full mailbox
  '553': 'hard',
  '554': 'hard',
  '556': 'hard',
};

/** The first RFC 3463 code of a text (`5.1.1`), skipping look-alikes inside versions and dates; null: none. */
export function firstEnhancedCode(text: string): string | null {
  return codesIn(text).first;
}

/** X.0.0 and X.n.0 say only "something in this area": they do not decide when the words are more precise. */
const generic = (code: string) => code.endsWith('.0');

/** Hard or soft for one enhanced status code, by the table. */
export function severityOfStatus(code: string): Severity {
  if (code.startsWith('4')) return 'soft';
  const row = BY_CODE.get(code.slice(2));
  return row ? row.permanent : 'hard';
}

export interface Evidence {
  /** The DSN `Status:` field, when there is one. */
  status: string | null;
  /** The diagnostic or the notice text that explains the failure (without the returned message). */
  text: string;
  /** Where the word lists matched `text` (-1: not at all), when the caller already looked. */
  words?: Words;
}

export interface Words {
  dead: number;
  soft: number;
  permanent: number;
}

/** Where each word list first matches a lower-cased text (-1: nowhere). */
export function wordsIn(text: string): Words {
  return { dead: text.search(DEAD_WORDS), soft: text.search(SOFT_WORDS), permanent: text.search(PERMANENT_WORDS) };
}

export interface Verdict {
  type: Severity;
  /** The code that decided, or null when the wording did. */
  status: string | null;
  basis: 'status' | 'wording' | 'smtp' | 'none';
}

/**
 * The verdict when a DSN's `Status:` field alone decides it (it holds a specific code): what
 * decideSeverity would answer whatever the text, so a caller can skip building the text.
 */
export function statusVerdict(status: string | null): Verdict | null {
  const specific = status ? codesIn(status).specific : null;
  return specific ? { type: severityOfStatus(specific), status: specific, basis: 'status' } : null;
}

/** The codes of a text: what decideSeverity reads of it, and where they stand. Read once, for the verdict and the diagnostic line. */
export interface Codes {
  /** The first RFC 3463 code and its index (-1: none). */
  first: string | null;
  firstAt: number;
  /** The first specific RFC 3463 code (not X.0.0 or X.n.0); the search stops there. */
  specific: string | null;
  /** The index of the first SMTP reply code of a failure or a delay (-1: none), and the first one SMTP_CODES knows. */
  smtpAt: number;
  smtp: string | null;
}

export function codesIn(text: string): Codes {
  const codes: Codes = { first: null, firstAt: -1, specific: null, smtpAt: -1, smtp: null };
  // Each expression literal is a new object at each call: its lastIndex is this call's.
  // An RFC 3463 enhanced status code, not part of a longer run of digits and dots (a version, a date).
  const enhanced = /(?<![\d.])([45])\.([0-7])\.(\d{1,3})(?![\d.])/g;
  for (let m = enhanced.exec(text); m; m = enhanced.exec(text)) {
    const code = `${m[1]}.${m[2]}.${m[3]}`;
    if (codes.first === null) {
      codes.first = code;
      codes.firstAt = m.index;
    }
    if (!generic(code)) {
      codes.specific = code;
      break;
    }
  }
  // An SMTP reply code (RFC 5321) of a failure or a delay, standing alone before a space, `:`, `-` or a line end.
  const smtp = /(?<![\d.\-/:])(421|45[0124]|5[25][0-6])(?=[ :-]|$)/gm;
  for (let m = smtp.exec(text); m; m = smtp.exec(text)) {
    if (codes.smtpAt < 0) codes.smtpAt = m.index;
    if (SMTP_CODES[m[1]]) {
      codes.smtp = m[1];
      break;
    }
  }
  return codes;
}

/**
 * A full mailbox is soft under any status: servers answer 550, 554, 5.1.1 or 5.7.1 for a mailbox
 * over quota. A hard verdict becomes soft when the words (`lower`, read only then) say the mailbox
 * is full and do not also say an address is dead (a notice about two recipients, one unknown).
 */
export function fullOverrides(verdict: Verdict, lower: () => string, words?: Words): Verdict {
  if (verdict.type !== 'hard') return verdict;
  // With the word lists already searched: SOFT_WORDS holds every full-mailbox phrase, so a text
  // where it matched nowhere has none, and whether the address is dead is known.
  if (words && (words.soft < 0 || words.dead >= 0)) return verdict;
  const text = lower();
  const full = FULL_MAILBOX_WORDS.test(text) && (words ? true : !DEAD_WORDS.test(text));
  return full ? { ...verdict, type: 'soft', basis: 'wording' } : verdict;
}

/** Decide hard or soft from what the server said (`textCodes`: codesIn(e.text), when the caller has it). */
export function decideSeverity(e: Evidence, textCodes: Codes = codesIn(e.text)): Verdict {
  // The status field's codes come before the text's.
  const status = e.status ? codesIn(e.status) : null;
  const specific = status?.specific ?? textCodes.specific;
  if (specific)
    return fullOverrides({ type: severityOfStatus(specific), status: specific, basis: 'status' }, () => e.text.toLowerCase(), e.words);
  const first = status?.first ?? textCodes.first;
  const code = textCodes.smtp;
  const words = e.words ?? wordsIn(e.text.toLowerCase());
  if (words.soft >= 0) return { type: 'soft', status: first ?? code, basis: 'wording' };
  if (first) return { type: severityOfStatus(first), status: first, basis: 'status' };
  if (code) return { type: SMTP_CODES[code], status: code, basis: 'smtp' };
  if (words.dead >= 0 || words.permanent >= 0) return { type: 'hard', status: null, basis: 'wording' };
  return { type: 'soft', status: null, basis: 'none' };
}
