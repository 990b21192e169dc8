import type { MailFacts } from '../domain/mail-classify';
import { FACT_HEADERS, type FactHeader } from '../domain/mail-headers';
import { returnedPart } from '../domain/mail-scan';
import { parseMail, type ParsedParts } from './mail-parse';

/** The Message-IDs (`<left@right>`) of an In-Reply-To or References header, in order. */
function ids(v: string | string[] | undefined): string[] {
  const all = Array.isArray(v) ? v.join(' ') : (v ?? '');
  // Most notices have neither header: nothing to search.
  return all ? (all.match(/<[^<>\s]+@[^<>\s]+>/g) ?? []) : [];
}

const KEPT: ReadonlySet<string> = new Set(FACT_HEADERS);
const isKept = (name: string): name is FactHeader => KEPT.has(name);

const ENTITIES: Record<string, string> = { nbsp: ' ', amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", mdash: '—' };

/** Visible text of an HTML body, enough for the classifier's words (no layout). */
export function htmlText(html: string): string {
  return html
    .replace(/<(style|script|head)[\s\S]*?<\/\1>/gi, '')
    .replace(/<br\s*\/?>|<\/(p|div|tr|li|h\d|blockquote)>/gi, '\n')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&(#\d+|[a-z]+);/gi, (m, e: string) =>
      e.startsWith('#') ? String.fromCharCode(Number(e.slice(1))) : (ENTITIES[e.toLowerCase()] ?? m),
    )
    .replace(/[ \t]+/g, ' ');
}

const NOT_WHITE = /\S/;
const RAW_BODY_LIMIT = 32 * 1024;
const PART_LIMIT = 64 * 1024;
/** The parts the classifier reads: reports and returned messages or headers (not images, documents…), as `/^(message\/|text\/rfc822-headers)/i` (test/domain/mail-fold.test.ts: why lower-casing reads the same). */
const reportPart = (contentType: string) => {
  const type = contentType.toLowerCase();
  return type.startsWith('message/') || type.startsWith('text/rfc822-headers');
};

const LF = 0x0a;
const CR = 0x0d;

/**
 * Where the header block of a message ends in its first `limit` bytes (the blank line, CRLF or LF),
 * else the limit. Byte by byte, stopping at the blank line: the body after it is never read (a
 * header block is a few KB: a search per line cost more, test/mail/facts.test.ts has the reference).
 */
function headerEnd(buf: Buffer, limit: number): number {
  for (let i = 0; i + 1 < limit; i++) {
    if (buf[i] !== LF) continue;
    const next = buf[i + 1];
    const blank = next === LF || (next === CR && i + 2 < limit && buf[i + 2] === LF);
    if (blank) return i > 0 && buf[i - 1] === CR ? i - 1 : i;
  }
  return limit;
}

/** A report part as text: a returned message or header part up to its blank line, any other whole (both capped). */
export function partText(contentType: string, content: Buffer): string {
  const limit = Math.min(content.length, PART_LIMIT);
  return content.toString('utf8', 0, returnedPart(contentType) ? headerEnd(content, limit) : limit);
}

/** The first bytes after the header block, as text: for messages whose MIME structure is broken. */
function rawBodyOf(raw: Buffer | string): string {
  const buf = typeof raw === 'string' ? Buffer.from(raw.slice(0, RAW_BODY_LIMIT * 2), 'latin1') : raw;
  const crlf = buf.indexOf('\r\n\r\n');
  const lf = buf.indexOf('\n\n');
  const start = crlf >= 0 && (lf < 0 || crlf < lf) ? crlf + 4 : lf >= 0 ? lf + 2 : -1;
  return start < 0 ? '' : buf.toString('latin1', start, Math.min(buf.length, start + RAW_BODY_LIMIT));
}

/** The classifier's view of a parsed message; the raw body is decoded only when it is read. */
class ParsedFacts implements MailFacts {
  readonly recipients: string[];
  readonly mailFrom: string;
  readonly subject: string;
  readonly from: string;
  readonly text: string;
  readonly inReplyTo: string[];
  readonly references: string[];
  readonly parts: MailFacts['parts'];
  readonly #raw: Buffer | string;
  // Only for a message where mailparser found no text (its text), or a report whose structure it
  // may not have followed: decoded when first read (most reports are read from their parts).
  readonly #hasRawBody: boolean;
  #rawBody: string | undefined;

  constructor(
    parsed: ParsedParts,
    envelope: { mailFrom: string; recipients: string[] },
    raw: Buffer | string,
    readonly headers: MailFacts['headers'],
  ) {
    const html = parsed.html;
    // Whether a text holds anything but white space (\S is the negation of trim's set).
    const hasText = parsed.text !== '' && NOT_WHITE.test(parsed.text);
    const text = hasText ? parsed.text : html ? htmlText(html) : '';
    const noText = !hasText && !NOT_WHITE.test(text);
    this.#raw = raw;
    this.#hasRawBody = noText || (headers['content-type'] ?? '').toLowerCase().includes('report');
    this.#rawBody = noText ? rawBodyOf(raw) : undefined;
    this.recipients = envelope.recipients;
    this.mailFrom = envelope.mailFrom;
    this.subject = parsed.subject;
    this.from = parsed.from?.value?.[0]?.address ?? parsed.from?.text ?? '';
    this.text = noText ? (this.#rawBody ?? '') : text;
    this.inReplyTo = ids(parsed.inReplyTo);
    this.references = ids(parsed.references);
    // A returned message can be large; the classifier reads its header block only.
    this.parts = parsed.attachments.map((a) => ({ contentType: a.contentType, content: partText(a.contentType, a.content) }));
  }

  get rawBody(): string | undefined {
    if (this.#hasRawBody) this.#rawBody ??= rawBodyOf(this.#raw);
    return this.#rawBody;
  }
}

/** The classifier's view of a parsed message. */
export function factsOf(
  parsed: ParsedParts<FactHeader>,
  envelope: { mailFrom: string; recipients: string[] },
  raw: Buffer | string = '',
): MailFacts {
  return new ParsedFacts(parsed, envelope, raw, parsed.headers);
}

/** Parse raw RFC 5322 bytes (mailparser) into classifier facts. Rejects on what cannot be parsed. */
export async function parseMailFacts(raw: Buffer | string, envelope: { mailFrom: string; recipients: string[] }): Promise<MailFacts> {
  return factsOf(await readMail(raw), envelope, raw);
}

/**
 * The parse the facts are made of, alone: mailparser's MailParser keeping the report parts and the
 * values of FACT_HEADERS (bench/mail-measure.ts times it).
 */
export function readMail(raw: Buffer | string): Promise<ParsedParts<FactHeader>> {
  return parseMail(raw, reportPart, isKept);
}
