import { simpleParser, type ParsedMail } from 'mailparser';
import type { MailFacts } from '../domain/mail-classify';

const MSGID = /<[^<>\s]+@[^<>\s]+>/g;

function ids(v: string | string[] | undefined): string[] {
  const all = Array.isArray(v) ? v.join(' ') : (v ?? '');
  return [...all.matchAll(MSGID)].map((m) => m[0]);
}

/** First value of each header, from the raw header lines (unfolded), names lowercased. */
function headerValues(parsed: ParsedMail): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { key, line } of parsed.headerLines ?? []) {
    const value = line
      .slice(line.indexOf(':') + 1)
      .replace(/\r?\n[ \t]+/g, ' ')
      .trim();
    out[key.toLowerCase()] ??= value;
  }
  return out;
}

/** The classifier's view of a parsed message. */
export function factsOf(parsed: ParsedMail, envelope: { mailFrom: string; recipients: string[] }): MailFacts {
  return {
    headers: headerValues(parsed),
    recipients: envelope.recipients,
    mailFrom: envelope.mailFrom,
    subject: parsed.subject ?? '',
    from: parsed.from?.value?.[0]?.address ?? parsed.from?.text ?? '',
    text: parsed.text ?? '',
    inReplyTo: ids(parsed.inReplyTo),
    references: ids(parsed.references),
    parts: (parsed.attachments ?? []).map((a) => ({ contentType: a.contentType, content: a.content.toString('utf8') })),
  };
}

/** Parse raw RFC 5322 bytes (mailparser) into classifier facts. Throws on what cannot be parsed. */
export async function parseMailFacts(raw: Buffer | string, envelope: { mailFrom: string; recipients: string[] }): Promise<MailFacts> {
  return factsOf(await simpleParser(raw, { skipImageLinks: true, skipTextToHtml: true, skipTextLinks: true }), envelope);
}
