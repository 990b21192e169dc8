/**
 * What a message that came back to us is: a bounce (RFC 3464 DSN or a common non-standard shape),
 * a complaint (RFC 5965 ARF), an auto-reply (RFC 3834), or a human reply. Pure: it reads the
 * parsed facts of the message (core/mail-facts.ts builds them with mailparser).
 */
import { parseTokenAddress } from './mail-address';
import { blockOf, saysDead, type BlockReason } from './mail-block';
import { AUTO_HEADERS, type FactHeader } from './mail-headers';
import { DAEMON_ADDRESS, firstRecipient, noticeRecipient, RFC822_ADDRESS, returnedTo } from './mail-recipient';
import { actionBlocks, fieldBlocks, messageIdFields, returnedPart, wordAt } from './mail-scan';
import { sesNotification } from './mail-ses';
import { codesIn, decideSeverity, firstEnhancedCode, fullOverrides, statusVerdict, wordsIn, type Codes, type Words } from './mail-status';
import { AUTO_REPLY_BODY, AUTO_REPLY_SUBJECT, BOUNCE_BODY, BOUNCE_SUBJECT, CHALLENGE_RESPONSE, DELAY_WORDS } from './mail-wording';

export interface MailFacts {
  /** The headers of FactHeader present in the message, names lowercased; the first value of each, unfolded. */
  headers: Partial<Record<FactHeader, string>>;
  /** The envelope recipients (RCPT TO). */
  recipients: string[];
  /** The envelope sender (MAIL FROM); '' for the null sender `<>` of bounces. */
  mailFrom: string;
  subject: string;
  from: string;
  text: string;
  /** The first 32 KB after the header block, undecoded: for reports whose MIME structure mailparser cannot follow. */
  rawBody?: string;
  inReplyTo: string[];
  references: string[];
  /**
   * Report parts: `message/delivery-status`, `message/feedback-report`, `message/rfc822`, `text/rfc822-headers`
   * (other attachments are left out). Of a returned message or its headers, the header block (what is read of it).
   */
  parts: Array<{ contentType: string; content: string }>;
}

/** A bounce's outcome: the address is dead (hard), may take mail later (soft), or the server refused us, not it (block). */
export type BounceType = 'hard' | 'soft' | 'block';

export type MailClass =
  | {
      kind: 'bounce';
      type: BounceType;
      status: string | null;
      diagnostic: string | null;
      recipient: string | null;
      standard: boolean;
      /** Why the server refused us, for a block (domain/mail-block.ts). */
      block?: BlockReason;
    }
  /** A delay notice: the server is still trying. Not a bounce; nothing changes for the address. */
  | { kind: 'warning'; status: string | null; recipient: string | null }
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

/** Addresses no person answers from: no-reply senders, mailing-list robots (Mailman's -bounces, -owner, -request, -admin). */
const ROBOT_ADDRESS = /^"?(no-?reply|do-?not-?reply|donotreply)\b|^[^@]*-(bounces?|owner|request|admin)(\+[^@]*)?@/i;
const DAEMON_NAME = /mailer-daemon|mail delivery (system|subsystem|service)|postmaster|delivery subsystem|system administrator/i;

function partOf(f: MailFacts, type: string): string | undefined {
  return f.parts.find((p) => p.contentType.toLowerCase().startsWith(type))?.content;
}

/** Where the returned copy of our message starts, so that its codes and words are not read as the notice's. */
const RETURNED =
  /^[\s\->*=|]*(-+ ?below this line is a copy|this is a copy of the message|original message (follows|as received)|returned message|original message|header of the (source mail|original message)|copy of the original message|your message reads|returned mail follows|attachment is a copy of the message)/im;

/** A notice says what happened in its first few KB; the rest is usually the returned message. */
const NOTICE_LIMIT = 4096;

/** The notice text: the human part before the returned message, capped (a long message costs no more than a short one). */
function noticeText(f: MailFacts): string {
  const text = f.text.slice(0, NOTICE_LIMIT);
  const cut = text.search(RETURNED);
  return cut < 0 ? text : text.slice(0, cut);
}

/** The notice, cut when first asked for: a DSN whose fields say everything, and a reply, never need it. */
type Notice = () => string;

function noticeOf(f: MailFacts): Notice {
  let notice: string | undefined;
  return () => (notice ??= noticeText(f));
}

function isReport(f: MailFacts): boolean {
  return (f.headers['content-type'] ?? '').toLowerCase().includes('multipart/report');
}

/** Whether the Content-Type names a report of any kind (as `/report/i`: no other character lower-cases onto these letters). */
function reportType(f: MailFacts): boolean {
  return (f.headers['content-type'] ?? '').toLowerCase().includes('report');
}

/** Whether the message comes from a mail system rather than a person (never a human reply). */
export function systemSender(f: MailFacts): string | null {
  if (f.mailFrom === '') return 'null sender';
  const local = f.from.trim();
  if (!local || local === '<>') return 'no From address';
  if (DAEMON_ADDRESS.test(local) || DAEMON_ADDRESS.test(f.mailFrom)) return 'mailer-daemon or postmaster sender';
  if (ROBOT_ADDRESS.test(local)) return 'no-reply or mailing-list robot sender';
  if (DAEMON_NAME.test(f.headers.from ?? '')) return 'mail system sender name';
  if (isReport(f)) return 'delivery report';
  if (f.headers['x-failed-recipients'] !== undefined) return 'X-Failed-Recipients';
  return null;
}

/** The first word of an Action value: up to white space, `(` or `;`. */
const ACTION_WORD = /^[^\s(;]*/;

/** The action word of a DSN recipient block (`failed (Bad destination mailbox address)` → failed). */
function actionOf(b: Record<string, string>): string {
  const a = ACTION_WORD.exec((b.action ?? '').trim().toLowerCase())?.[0] ?? '';
  // `expired` (the sender gave up retrying) is a failure too; its status says hard or soft.
  return a === 'failure' || a === 'error' || a === 'expired' ? 'failed' : a;
}

/** The recipient blocks of the text, else of the raw body, when the report's MIME structure could not be followed (null: no Action line in either). */
function mislabelledReport(f: MailFacts): Array<Record<string, string>> | null {
  return actionBlocks(f.text) ?? (reportType(f) ? actionBlocks(f.rawBody ?? '') : null);
}

/** The DSN blocks holding an Action line: from the report part, else (a system sender's report whose MIME structure mailparser could not follow) from the text or the raw body. */
function recipientBlocks(f: MailFacts, report: string | undefined, system: string | null): Array<Record<string, string>> | null {
  if (report !== undefined) return report ? (actionBlocks(report) ?? []) : null;
  return system ? mislabelledReport(f) : null;
}

/** RFC 3464 fields, from a `message/delivery-status` part or, in mislabelled reports, from the text. */
function dsn(f: MailFacts, system: string | null, notice: Notice, own: readonly string[]): MailClass | null {
  const report = partOf(f, 'message/delivery-status') ?? partOf(f, 'message/global-delivery-status');
  const blocks = recipientBlocks(f, report, system);
  if (!blocks) return null;
  const recipients = blocks.filter((b) => b.action && (b['final-recipient'] || b['original-recipient'] || b.status));
  if (!recipients.length) return null;
  const failed = recipients.find((b) => actionOf(b) === 'failed');
  if (!failed) {
    const delayed = recipients.find((b) => actionOf(b) === 'delayed');
    if (delayed) return { kind: 'warning', status: delayed.status?.split(/\s/)[0] ?? null, recipient: firstRecipient(delayed) };
    return { kind: 'unknown', reason: `delivery report with action ${actionOf(recipients[0]) || 'missing'} (not a failure)` };
  }
  const diagnostic = failed['diagnostic-code']?.replace(/^smtp;\s*/i, '') ?? null;
  // A specific Status decides alone: the notice is read only when it does not.
  // The remote server's own answer when the report gives it (a notice may quote other recipients' answers), else the notice.
  let lowerSaid: string | undefined;
  const said = () => (lowerSaid ??= (diagnostic ?? notice()).toLowerCase());
  const status = statusVerdict(failed.status ?? null);
  const verdict = status
    ? fullOverrides(status, said)
    : decideSeverity({ status: failed.status ?? null, text: `${failed.status ?? ''}\n${diagnostic ?? ''}\n${notice()}` });
  // The diagnostic's own X.7.x code counts when the report's Status says something else (a relay's 5.1.1 for a remote 5.7.1).
  const remote = diagnostic?.includes('.7.') ? codesIn(diagnostic).specific : null;
  const blockStatus = remote?.slice(2).startsWith('7.') ? remote : verdict.status;
  // Only a bounce that would suppress (hard), or one nothing explained, is looked at for a block: a soft one never suppresses.
  const block = verdict.type === 'hard' || verdict.basis === 'none' ? blockOf({ status: blockStatus, lower: said, dead: saysDead }) : null;
  // No recipient field: the address the notice names, else the returned message's To:.
  // A field that holds no RFC 822 address (a file path, an X.400 form) comes last.
  const field = firstRecipient(failed);
  const recipient =
    (field !== null && RFC822_ADDRESS.test(field) ? field : null) ?? noticeRecipient(f, notice(), own) ?? returnedTo(f, own) ?? field;
  return block
    ? { kind: 'bounce', type: 'block', status: verdict.status, diagnostic, recipient, standard: true, block }
    : { kind: 'bounce', type: verdict.type, status: verdict.status, diagnostic, recipient, standard: true };
}

/** RFC 5965: `multipart/report; report-type=feedback-report` with a `message/feedback-report` part. */
function arf(f: MailFacts): MailClass | null {
  const report = partOf(f, 'message/feedback-report');
  if (!report) {
    // Microsoft's Junk Mail Reporting Program: not ARF, a fixed subject from Hotmail's staff address.
    // As `/^\s*complaint about message from /i` (trimStart drops what `\s*` matches; test/domain/mail-fold.test.ts).
    const jmrp =
      f.subject.trimStart().toLowerCase().startsWith('complaint about message from ') && /@(hotmail|outlook|live|msn)\.com$/i.test(f.from);
    return jmrp ? { kind: 'complaint', feedbackType: 'abuse' } : null;
  }
  const fields = fieldBlocks(report)[0] ?? {};
  return { kind: 'complaint', feedbackType: (fields['feedback-type'] ?? 'abuse').toLowerCase() };
}

/** Bounces that are not DSNs: Exim, qmail, Exchange 5.5, Yahoo, GroupWise and others, in seven languages. */
function freeTextBounce(f: MailFacts, system: string | null, noticeFn: Notice, own: readonly string[]): MailClass | null {
  const subject = BOUNCE_SUBJECT.test(f.subject.toLowerCase());
  if (!system && !subject) return null; // a person's message needs both a notice subject and notice words
  const notice = noticeFn();
  const said = `${f.subject}\n${notice}`;
  const lower = said.toLowerCase();
  const words = wordsIn(lower);
  // A system sender's notice subject is enough; otherwise the body must read as a notice.
  const readsAsNotice = (system && subject) || words.dead >= 0 || BOUNCE_BODY.test(lower.slice(f.subject.length));
  if (!readsAsNotice) return null;
  const recipient = noticeRecipient(f, notice, own) ?? returnedTo(f, own);
  if (words.dead < 0 && words.permanent < 0 && DELAY_WORDS.test(lower)) {
    return { kind: 'warning', status: firstEnhancedCode(notice), recipient };
  }
  const codes = codesIn(said);
  const verdict = decideSeverity({ status: null, text: said, words }, codes);
  // Indices found in the lower-cased text fit the original unless lower-casing changed its length
  // (then no character changed its place: the codes' places are the same in both).
  const diagnostic =
    lower.length === said.length ? diagnosticLine(said, lower, words, codes) : diagnosticLine(lower, lower, words, codesIn(lower));
  // As for a DSN: a hard bounce, or one nothing explained (a notice whose words make it soft stays soft).
  const block =
    verdict.type === 'hard' || verdict.basis === 'none'
      ? blockOf({ status: verdict.status, lower: () => lower, dead: () => words.dead >= 0 })
      : null;
  if (block) return { kind: 'bounce', type: 'block', status: verdict.status, diagnostic, recipient, standard: false, block };
  return { kind: 'bounce', type: verdict.type, status: verdict.status, diagnostic, recipient, standard: false };
}

/** The line of the notice that says why: the first with a code or a cause, else the first that says "not delivered". */
function diagnosticLine(said: string, lower: string, words: Words, codes: Codes): string {
  const hits = [codes.firstAt, codes.smtpAt, words.dead, words.soft, words.permanent].filter((i) => i >= 0);
  const i = hits.length ? Math.min(...hits) : Math.max(lower.search(BOUNCE_BODY), 0);
  const start = said.lastIndexOf('\n', i) + 1;
  const end = said.indexOf('\n', i);
  return said
    .slice(start, end < 0 ? undefined : end)
    .trim()
    .slice(0, 300);
}

const SUBJECT_PREFIX = /^\s*((re|aw|fw|fwd|wg|tr|rv|sv|vs|antw|r)\s*:\s*|\[[^\]]*\]\s*)+/i;

/** RFC 3834 and the de-facto headers and subjects of out-of-office responders. */
function autoReply(f: MailFacts): MailClass | null {
  const h = f.headers;
  const submitted = (h['auto-submitted'] ?? '').toLowerCase();
  if (submitted && submitted !== 'no') return { kind: 'auto_reply', reason: `Auto-Submitted: ${submitted}` };
  const header = AUTO_HEADERS.find((name) => h[name] !== undefined);
  if (header) return { kind: 'auto_reply', reason: header };
  const precedence = h.precedence ?? h['x-precedence'] ?? '';
  if (/^(auto_reply|bulk|junk|list)$/i.test(precedence)) return { kind: 'auto_reply', reason: `Precedence: ${precedence}` };
  const subject = f.subject.replace(SUBJECT_PREFIX, '').toLowerCase();
  if (AUTO_REPLY_SUBJECT.test(subject)) return { kind: 'auto_reply', reason: 'subject' };
  return null;
}

/**
 * What only an automatic answer opens with: a challenge-response request (or TMDA's Message-ID),
 * or an out-of-office sentence (first 500 characters). Asked only of a message that would
 * otherwise be a human reply.
 */
function automaticOpening(f: MailFacts): MailClass | null {
  const subject = f.subject.replace(SUBJECT_PREFIX, '').toLowerCase();
  // TMDA's confirmation requests carry a Message-ID ending in `-tmda-confirm>`.
  const opening = f.text.slice(0, AUTO_REPLY_OPENING).toLowerCase();
  if (CHALLENGE_RESPONSE.test(subject) || CHALLENGE_RESPONSE.test(opening) || /-tmda-confirm>$/i.test(f.headers['message-id'] ?? ''))
    return { kind: 'auto_reply', reason: 'challenge-response' };
  if (AUTO_REPLY_BODY.test(opening)) return { kind: 'auto_reply', reason: 'body' };
  return null;
}

/** How much of the text an automatic answer's opening sentence is looked for in. */
const AUTO_REPLY_OPENING = 500;

/** How much of the text is searched for our tokens. */
const TEXT_SCAN = 64 * 1024;

/** `@` and each of our domains, lower-cased: an address ending with one (any case) is ours. Domains are ASCII (IDNA). */
const ownDomains = (domains: Domains) => [domains.bounce, domains.reply].map((d) => `@${d.toLowerCase()}`);

/** `bounce+` or `reply+` (any case) and a token, then `@`: the start of one of our token addresses. */
const TOKEN_ADDRESS_START = /^(?:bounce|reply)\+([0-9a-f]{16,64})@/i;

/** Our tokens in a text, left to right: each in an address on one of our domains (`own`). */
function addTokens(tokens: Set<string>, text: string, own: readonly string[]): void {
  // Each token address has its `+` right after `bounce` or `reply`: tried there only.
  let next = 0;
  for (let plus = text.indexOf('+'); plus >= 0; plus = text.indexOf('+', plus + 1)) {
    for (const start of [plus - 'bounce'.length, plus - 'reply'.length]) {
      // Only where `bounce` or `reply` (any case) stands right before the `+`, after the last address found.
      if (start < next || !wordAt(text, start, start === plus - 'bounce'.length ? 'bounce' : 'reply')) continue;
      const m = TOKEN_ADDRESS_START.exec(text.slice(start));
      if (!m) continue;
      const at = start + m[0].length - 1; // the `@`
      const domain = own.find((d) => wordAt(text, at, d));
      if (domain) {
        tokens.add(m[1].toLowerCase());
        next = at + domain.length;
        break;
      }
    }
  }
}

/** Our tokens and Message-IDs named by the envelope recipients, the reply headers and returned headers. */
function references(f: MailFacts, domains: Domains, own: readonly string[]): { tokens: string[]; messageIds: string[]; toReply: boolean } {
  const tokens = new Set<string>();
  let toReply = false;
  for (const r of f.recipients) {
    const t = parseTokenAddress(r, domains);
    if (t) tokens.add(t.token);
    if (t?.kind === 'reply') toReply = true;
  }
  // Only the header block of a returned message counts (its body can be large and names nothing of ours).
  let returned = '';
  for (const p of f.parts) {
    // Of a returned message, the facts hold its header block (core/mail-facts.ts cuts it there).
    if (returnedPart(p.contentType)) returned = returned ? `${returned}\n${p.content}` : p.content;
  }
  addTokens(tokens, returned, own);
  addTokens(tokens, f.text.slice(0, TEXT_SCAN), own);
  const ids = new Set<string>(f.inReplyTo);
  for (const id of f.references) ids.add(id);
  for (const id of messageIdFields(returned)) ids.add(id);
  return { tokens: [...tokens], messageIds: [...ids], toReply };
}

/**
 * Classify a message that arrived at the bounce or reply domain. Order matters (docs/sequences.md):
 * complaint, DSN, free-text notice, auto-reply; a system sender (null sender, mailer-daemon,
 * postmaster, a delivery report) is never a human reply: what is left of it is unknown, with the
 * reason. A human reply comes from a real sender, to the reply address or answering our mail.
 */
export function classifyMail(f: MailFacts, domains: Domains): Classified {
  const own = ownDomains(domains);
  const { tokens, messageIds, toReply } = references(f, domains, own);
  const system = systemSender(f);
  const notice = noticeOf(f);
  // An Amazon SES notification (JSON from SNS's no-reply address) is read only from a system sender.
  const cls =
    arf(f) ??
    (system ? sesNotification(f.text) : null) ??
    dsn(f, system, notice, own) ??
    freeTextBounce(f, system, notice, own) ??
    autoReply(f);
  if (cls) return { class: cls, tokens, messageIds };
  if (system)
    return { class: { kind: 'unknown', reason: `${system}, but neither a report, a notice nor an auto-reply` }, tokens, messageIds };
  if (toReply || f.inReplyTo.length || f.references.length) return { class: automaticOpening(f) ?? { kind: 'reply' }, tokens, messageIds };
  return { class: { kind: 'unknown', reason: 'neither a report, an auto-reply nor a reply' }, tokens, messageIds };
}
