import { simpleParser, type ParsedMail } from 'mailparser';
import type { MailFacts } from '../domain/mail-classify';

const MSGID = /<[^<>\s]+@[^<>\s]+>/g;

function ids(v: string | string[] | undefined): string[] {
  const all = Array.isArray(v) ? v.join(' ') : (v ?? '');
  return [...all.matchAll(MSGID)].map((m) => m[0]);
}

/** First value of each header, from the raw header lines (unfolded); mailsplit gives the names lowercased. */
function headerValues(parsed: ParsedMail): Record<string, string> {
  // A prototype-less object is a hash table from the start: no hidden-class change for each new header name.
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const { key, line } of parsed.headerLines ?? []) {
    if (out[key] !== undefined) continue; // Received and the like repeat: the first is kept
    const value = line.slice(line.indexOf(':') + 1);
    out[key] = (value.includes('\n') ? value.replace(/\r?\n[ \t]+/g, ' ') : value).trim();
  }
  return out;
}

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

const RAW_BODY_LIMIT = 32 * 1024;
const PART_LIMIT = 64 * 1024;
/** The parts the classifier reads: reports and returned messages or headers (not images, documents…). */
const REPORT_PART = /^(message\/|text\/rfc822-headers)/i;

/** The first bytes after the header block, as text: for messages whose MIME structure is broken. */
function rawBodyOf(raw: Buffer | string): string {
  const buf = typeof raw === 'string' ? Buffer.from(raw.slice(0, RAW_BODY_LIMIT * 2), 'latin1') : raw;
  const crlf = buf.indexOf('\r\n\r\n');
  const lf = buf.indexOf('\n\n');
  const start = crlf >= 0 && (lf < 0 || crlf < lf) ? crlf + 4 : lf >= 0 ? lf + 2 : -1;
  return start < 0 ? '' : buf.toString('latin1', start, Math.min(buf.length, start + RAW_BODY_LIMIT));
}

/** The classifier's view of a parsed message. */
export function factsOf(parsed: ParsedMail, envelope: { mailFrom: string; recipients: string[] }, raw: Buffer | string = ''): MailFacts {
  const html = typeof parsed.html === 'string' ? parsed.html : '';
  const text = parsed.text?.trim() ? parsed.text : html ? htmlText(html) : '';
  const headers = headerValues(parsed);
  // Only needed when mailparser found no text, or for a report whose structure it may not have followed.
  const rawBody = !text.trim() || /report/i.test(headers['content-type'] ?? '') ? rawBodyOf(raw) : undefined;
  return {
    headers,
    recipients: envelope.recipients,
    mailFrom: envelope.mailFrom,
    subject: parsed.subject ?? '',
    from: parsed.from?.value?.[0]?.address ?? parsed.from?.text ?? '',
    text: text.trim() ? text : (rawBody ?? ''),
    rawBody,
    inReplyTo: ids(parsed.inReplyTo),
    references: ids(parsed.references),
    // A returned message can be large; the classifier reads its header block only.
    parts: (parsed.attachments ?? [])
      .filter((a) => REPORT_PART.test(a.contentType))
      .map((a) => ({ contentType: a.contentType, content: a.content.toString('utf8', 0, Math.min(a.content.length, PART_LIMIT)) })),
  };
}

/** Parse raw RFC 5322 bytes (mailparser) into classifier facts. Throws on what cannot be parsed. */
export async function parseMailFacts(raw: Buffer | string, envelope: { mailFrom: string; recipients: string[] }): Promise<MailFacts> {
  return factsOf(await simpleParser(raw, { skipImageLinks: true, skipTextToHtml: true, skipTextLinks: true }), envelope, raw);
}
