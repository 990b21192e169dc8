/**
 * What a message that came back to us is: a bounce (RFC 3464 DSN or a common non-standard shape),
 * a complaint (RFC 5965 ARF), an auto-reply (RFC 3834), or a human reply. Pure: it reads the
 * parsed facts of the message (core/mail-facts.ts builds them with mailparser).
 */
import { parseTokenAddress } from './mail-address';

export interface MailFacts {
  /** Header names lowercased; the first value of each, unfolded. */
  headers: Record<string, string>;
  /** The envelope recipients (RCPT TO). */
  recipients: string[];
  /** The envelope sender (MAIL FROM); '' for the null sender `<>` of bounces. */
  mailFrom: string;
  subject: string;
  from: string;
  text: string;
  inReplyTo: string[];
  references: string[];
  /** Non-body parts, e.g. `message/delivery-status`, `message/feedback-report`, `text/rfc822-headers`. */
  parts: Array<{ contentType: string; content: string }>;
}

export type MailClass =
  | { kind: 'bounce'; type: 'hard' | 'soft'; status: string | null; diagnostic: string | null; recipient: string | null; standard: boolean }
  | { kind: 'complaint'; feedbackType: string }
  | { kind: 'auto_reply'; reason: string }
  | { kind: 'reply' }
  | { kind: 'unknown'; reason: string };

export interface Classified {
  class: MailClass;
  /** Tokens of our messages named by the envelope recipient or the returned headers. */
  tokens: string[];
  /** Message-IDs of ours the message refers to (In-Reply-To, References, returned headers). */
  messageIds: string[];
}

export interface Domains {
  bounce: string;
  reply: string;
}

/** Header-style fields (`Name: value`, folded lines joined), grouped into blank-line separated blocks. */
export function fieldBlocks(text: string): Array<Record<string, string>> {
  const blocks: Array<Record<string, string>> = [];
  let cur: Record<string, string> = {};
  let last = '';
  for (const line of text.replace(/\r\n/g, '\n').split('\n')) {
    if (line.trim() === '') {
      if (Object.keys(cur).length) blocks.push(cur);
      cur = {};
      last = '';
    } else if (/^[ \t]/.test(line) && last) {
      cur[last] += ` ${line.trim()}`;
    } else {
      const m = /^([A-Za-z0-9-]+):\s*(.*)$/.exec(line);
      if (m) {
        last = m[1].toLowerCase();
        cur[last] ??= m[2].trim();
      }
    }
  }
  if (Object.keys(cur).length) blocks.push(cur);
  return blocks;
}

const ENHANCED = /\b([245])\.(\d{1,3})\.(\d{1,3})\b/;

/** Hard or soft from an enhanced status (RFC 3463): 5.x.x is permanent except a full mailbox (5.2.2). */
function severity(status: string | null, fallbackText: string): 'hard' | 'soft' {
  if (status) {
    if (status.startsWith('4')) return 'soft';
    if (status === '5.2.2') return 'soft';
    if (status.startsWith('5')) return 'hard';
  }
  return /\b5[0-9]{2}\b/.test(fallbackText) && !/\b4[0-9]{2}[ -]/.test(fallbackText) ? 'hard' : 'soft';
}

function partOf(f: MailFacts, type: string): string | undefined {
  return f.parts.find((p) => p.contentType.toLowerCase().startsWith(type))?.content;
}

/** RFC 3464: the first failed (or delayed) recipient of a `message/delivery-status` part. */
function dsn(f: MailFacts): MailClass | null {
  const ct = (f.headers['content-type'] ?? '').toLowerCase();
  const report = partOf(f, 'message/delivery-status') ?? partOf(f, 'message/global-delivery-status');
  if (!report || !(ct.includes('multipart/report') || report)) return null;
  const blocks = fieldBlocks(report);
  const recipients = blocks.filter((b) => b['final-recipient'] || b['original-recipient'] || b.action);
  const failed = recipients.find((b) => /failed/i.test(b.action ?? '')) ?? recipients.find((b) => /delayed/i.test(b.action ?? ''));
  if (!failed) return recipients.length ? { kind: 'unknown', reason: `dsn action ${recipients[0].action ?? 'missing'}` } : null;
  const status = ENHANCED.exec(failed.status ?? '')?.[0] ?? ENHANCED.exec(failed['diagnostic-code'] ?? '')?.[0] ?? null;
  const delayed = /delayed/i.test(failed.action ?? '');
  const recipient = (failed['final-recipient'] ?? failed['original-recipient'] ?? '').replace(/^[^;]*;\s*/, '') || null;
  return {
    kind: 'bounce',
    type: delayed ? 'soft' : severity(status, failed['diagnostic-code'] ?? ''),
    status,
    diagnostic: failed['diagnostic-code']?.replace(/^smtp;\s*/i, '') ?? null,
    recipient,
    standard: true,
  };
}

/** RFC 5965: `multipart/report; report-type=feedback-report` with a `message/feedback-report` part. */
function arf(f: MailFacts): MailClass | null {
  const report = partOf(f, 'message/feedback-report');
  if (!report) return null;
  const fields = fieldBlocks(report)[0] ?? {};
  return { kind: 'complaint', feedbackType: (fields['feedback-type'] ?? 'abuse').toLowerCase() };
}

const DAEMON = /^(mailer-daemon|postmaster|mail-daemon|mailerdaemon)@|^(mailer-daemon|postmaster)$/i;
const BOUNCE_SUBJECT =
  /undeliver|undelivered mail|delivery (status notification|failure|failed|has failed|incomplete)|returned mail|failure notice|mail delivery (failed|system|subsystem)|could not be delivered|message not delivered|non[- ]?delivery|warning: (message .* delayed|could not send message)/i;
const PERMANENT =
  /permanent(ly)? (error|failure|fatal)|fatal errors?|user unknown|unknown user|no such (user|mailbox|recipient)|does not exist|doesn't have a .* account|address not found|recipient (address )?rejected|mailbox (unavailable|not found)|invalid (mailbox|recipient)|not going to try again|account (has been )?disabled|RecipientNotFound|account that you tried to reach/i;
const TEMPORARY =
  /temporar(y|ily)|delayed|will (be )?retr(y|ied)|still trying|try again later|greylist|mailbox (is )?full|over quota|quota exceeded|insufficient (system )?storage|\(Delay\)/i;

/** Bounces that are not DSNs: Exim, qmail, old Sendmail, Yahoo and provider-specific texts. */
function nonStandardBounce(f: MailFacts): MailClass | null {
  const fromDaemon = DAEMON.test(f.from) || /mailer-daemon|mail delivery (system|subsystem)/i.test(f.from);
  const nullSender = f.mailFrom === '';
  if (!BOUNCE_SUBJECT.test(f.subject) && !(fromDaemon && (PERMANENT.test(f.text) || TEMPORARY.test(f.text)))) return null;
  if (!fromDaemon && !nullSender && !/^(undeliver|returned mail|failure notice|delivery status)/i.test(f.subject)) return null;
  const text = `${f.subject}\n${f.text}`;
  const status = ENHANCED.exec(f.text)?.[0] ?? null;
  const code = /\b([45][0-9]{2})[ :-]/.exec(f.text)?.[1] ?? null;
  let type: 'hard' | 'soft';
  if (status) type = severity(status, text);
  else if (PERMANENT.test(text)) type = 'hard';
  else if (TEMPORARY.test(text)) type = 'soft';
  else type = code?.startsWith('5') ? 'hard' : 'soft';
  if (!status && type === 'hard' && TEMPORARY.test(text) && !PERMANENT.test(text)) type = 'soft';
  const line = f.text.split('\n').find((l) => ENHANCED.test(l) || /\b[45][0-9]{2}[ -]/.test(l) || PERMANENT.test(l) || TEMPORARY.test(l));
  const recipient = /<?([^\s<>"]+@[^\s<>":]+)>?:?/.exec(f.text)?.[1] ?? null;
  return { kind: 'bounce', type, status: status ?? code, diagnostic: line?.trim().slice(0, 300) ?? null, recipient, standard: false };
}

const OOO_SUBJECT =
  /^(auto(matic)?[ -]?(reply|response|antwort)|out of (the )?office|ooo\b|away from (the )?office|on vacation|abwesenheit|r[ée]ponse automatique|respuesta autom[aá]tica|fuera de la oficina|absence)/i;

/** RFC 3834 and the de-facto headers and subjects of out-of-office responders. */
function autoReply(f: MailFacts): MailClass | null {
  const h = f.headers;
  const submitted = (h['auto-submitted'] ?? '').toLowerCase();
  if (submitted && submitted !== 'no') return { kind: 'auto_reply', reason: `Auto-Submitted: ${submitted}` };
  for (const name of ['x-autoreply', 'x-autorespond', 'x-autoresponder', 'x-autogenerated', 'x-ms-exchange-inbox-rules-loop']) {
    if (h[name] !== undefined) return { kind: 'auto_reply', reason: name };
  }
  if (/^(auto_reply|bulk|junk|list)$/i.test(h.precedence ?? '')) return { kind: 'auto_reply', reason: `Precedence: ${h.precedence}` };
  if (OOO_SUBJECT.test(f.subject.replace(/^(re|aw|fw|fwd):\s*/i, ''))) return { kind: 'auto_reply', reason: 'subject' };
  return null;
}

const MSGID = /<[^<>\s]+@[^<>\s]+>/g;

/** Our tokens and Message-IDs named by the envelope recipients, the reply headers and returned headers. */
function references(f: MailFacts, domains: Domains): { tokens: string[]; messageIds: string[] } {
  const tokens = new Set<string>();
  for (const r of f.recipients) {
    const t = parseTokenAddress(r, domains);
    if (t) tokens.add(t.token);
  }
  const returned = f.parts
    .filter((p) => /rfc822|headers/i.test(p.contentType))
    .map((p) => p.content)
    .join('\n');
  const esc = (d: string) => d.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const inText = new RegExp(`(?:bounce|reply)\\+([0-9a-f]{16,64})@(?:${esc(domains.bounce)}|${esc(domains.reply)})`, 'gi');
  for (const m of `${returned}\n${f.text}`.matchAll(inText)) tokens.add(m[1].toLowerCase());
  const ids = new Set<string>([...f.inReplyTo, ...f.references]);
  for (const block of fieldBlocks(returned)) if (block['message-id']) for (const m of block['message-id'].matchAll(MSGID)) ids.add(m[0]);
  return { tokens: [...tokens], messageIds: [...ids] };
}

/** Classify a message that arrived at the bounce or reply domain. Order matters: see docs/sequences.md. */
export function classifyMail(f: MailFacts, domains: Domains): Classified {
  const refs = references(f, domains);
  const cls = arf(f) ?? dsn(f) ?? nonStandardBounce(f) ?? autoReply(f);
  if (cls) return { class: cls, ...refs };
  const toReply = f.recipients.some((r) => parseTokenAddress(r, domains)?.kind === 'reply');
  if (toReply || f.inReplyTo.length || f.references.length) return { class: { kind: 'reply' }, ...refs };
  return { class: { kind: 'unknown', reason: 'neither a report, an auto-reply nor a reply' }, ...refs };
}
