/**
 * The failed address a notice names (docs/sequences.md "Mail in and out"): a DSN's recipient
 * fields, else the address a free-text notice names, else the To: of the returned message. The
 * address is recorded for people to read; nothing is matched on it (matching uses our token and
 * Message-ID). Pure.
 */
import { firstAddress, inQuotedHeader, returnedPart, withoutSmtpPrefix, wordAt } from './mail-scan';

/** A system sender: the null sender of RFC 5321 §4.5.5, or a mailer-daemon, postmaster or mail-system address. */
export const DAEMON_ADDRESS =
  /^"?(mailer-daemon|mailer_daemon|post_?master|mail-daemon|mailerdaemon|mdaemon|mail\.delivery\.system|ndr)\b/i;

/** The address types of RFC 3464 recipient fields that hold an RFC 822 address (`rfc822;`, `utf-8;` of RFC 6533, `unknown;`). */
const ADDRESS_TYPE = /^(rfc822|utf-8|unknown)[ \t]*;[ \t]*/i;

/**
 * A recipient field's address: without its type, angle brackets or `smtp=`. A repeated type
 * (`rfc822; rfc822;a@b`, written by some gateways) is stripped however often it repeats; another
 * type (`x400;`) loses its first `;` only, as its address may hold more.
 */
export function cleanRecipient(v: string | undefined): string {
  const value = (v ?? '').trim();
  let address = value;
  while (ADDRESS_TYPE.test(address)) address = address.replace(ADDRESS_TYPE, '');
  if (address === value) {
    const semicolon = value.indexOf(';');
    address = semicolon < 0 ? value : value.slice(semicolon + 1).trimStart();
  }
  return withoutSmtpPrefix(address.replaceAll('<', '').replaceAll('>', '')).trim();
}

/** An address as RFC 822 writes it (not X.400 or an alias form). */
export const RFC822_ADDRESS = /^[^\s@/:]+@[^\s@/]+\.[a-z]{2,}$/i;

/** The address we mailed: Original-Recipient when it is an RFC 822 address, else Final-Recipient (an X.400 or alias form comes last). */
export function firstRecipient(b: Record<string, string>): string | null {
  const candidates = [cleanRecipient(b['original-recipient']), cleanRecipient(b['final-recipient'])].filter(Boolean);
  return candidates.find((a) => RFC822_ADDRESS.test(a)) ?? candidates[0] ?? null;
}

/** What of the message the recipient is looked for in (MailFacts has it all). */
export interface RecipientSource {
  from: string;
  text: string;
  headers: { 'x-failed-recipients'?: string };
  parts: Array<{ contentType: string; content: string }>;
}

/** Whether an address is ours (`own`: `@` and our domains, lower-cased), the sender's or a mail system's. */
function notTheRecipient(address: string, own: readonly string[], sender: string): boolean {
  const a = withoutSmtpPrefix(address);
  return own.some((domain) => wordAt(a, a.length - domain.length, domain)) || a.toLowerCase() === sender || DAEMON_ADDRESS.test(a);
}

/** The failed address a free-text notice names: X-Failed-Recipients, else the first address that is not ours, the sender's or a mail system's. */
export function noticeRecipient(f: RecipientSource, notice: string, own: readonly string[]): string | null {
  const header = f.headers['x-failed-recipients'];
  if (header) return header.split(',')[0].trim();
  if (!notice.includes('@')) return null;
  const sender = f.from.toLowerCase();
  // Not on the lines of a quoted header block (the returned message's own From/To).
  const found = firstAddress(notice, (address, start) => !inQuotedHeader(notice, start) && !notTheRecipient(address, own, sender));
  return found === null ? null : withoutSmtpPrefix(found);
}

/** A `To:` field at a line start (folded lines joined), in a header block. */
const TO_FIELD = /^to:[ \t]*([^\r\n]*(?:\r?\n[ \t][^\r\n]*)*)/im;

/** How much of the text is searched for a quoted `To:` line. */
const QUOTED_LIMIT = 16 * 1024;

/**
 * The To: of the returned message: in its header part (`message/rfc822`, `text/rfc822-headers`),
 * else on a quoted header line of the text ("Original message … To: a@b"). Ours, the sender's and
 * mail systems' addresses are skipped. The last resort when a notice names no address.
 */
export function returnedTo(f: RecipientSource, own: readonly string[]): string | null {
  const sender = f.from.toLowerCase();
  const sources = [...f.parts.filter((p) => returnedPart(p.contentType)).map((p) => p.content), f.text.slice(0, QUOTED_LIMIT)];
  for (const source of sources) {
    const field = TO_FIELD.exec(source)?.[1];
    if (!field) continue;
    const found = firstAddress(field, (address) => !notTheRecipient(address, own, sender));
    if (found !== null) return withoutSmtpPrefix(found);
  }
  return null;
}
