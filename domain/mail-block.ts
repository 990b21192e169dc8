/**
 * A block: the receiving server refused us, not the address. A rejection for our sending IP's
 * reputation, for failed sender authentication (DMARC, SPF, DKIM), for the content (spam, a
 * virus) or by a sender policy says nothing about the recipient's mailbox, so it never suppresses
 * the address and never ends the enrollment; it is counted per team and reason so that a sender
 * sees its mail being refused (docs/sequences.md "Blocks"). Pure.
 *
 * The rule, in order:
 * 1. A specific status whose subject is not 7 (`5.1.1`, `5.2.2`…) says what happened: no block.
 * 2. The RFC 7372 authentication codes X.7.20–X.7.26 and X.7.29 are a block alone
 *    (authentication); X.7.28 (mail flood) is one too (reputation).
 * 3. Otherwise (an X.7.x status, an undefined one, only an SMTP reply code, or none), the words of
 *    the notice decide: they name one of the four reasons, and the notice does not also say the
 *    address is dead ("user unknown", "no such user"…).
 */
import { alternation } from './alternation';
import { codesIn } from './mail-status';
import { DEAD_WORDS } from './mail-wording';

export const BLOCK_REASONS = ['reputation', 'authentication', 'content', 'policy'] as const;
export type BlockReason = (typeof BLOCK_REASONS)[number];

/** The words of each reason, lower case, matched against lower-cased text; looked for in this order. */
export const BLOCK_WORDING: ReadonlyArray<{ reason: BlockReason; phrases: readonly string[] }> = [
  {
    reason: 'authentication',
    phrases: [
      'dmarc\\b',
      ' spf\\b',
      '/spf\\b',
      'spf record',
      'spf check',
      'spf fail',
      'dkim\\b',
      'unauthenticated (mail|email|message|sender)',
      '(sender|message) (is )?not authenticated',
      'authentication (check|checks|failed|failure|required)',
      'sender (address|domain) (verification|authentication) failed',
      'reverse dns',
      'ptr record',
      'sender id ',
      'authentication information',
      'invalid ip for sending mail',
    ],
  },
  {
    reason: 'reputation',
    phrases: [
      '(black|block|deny|ban)[ -]?list',
      'listed (at|on|by) ',
      'spamhaus',
      'spamcop',
      'sorbs\\b',
      'dnsbl',
      ' rbl\\b',
      'reputation',
      'blocked using',
      'banned sending ip',
      '(client|sending|your) (host|ip|server|address)( address)? .{0,60}(blocked|rejected|refused|banned)',
      'ip .{0,40}(is|has been) (blocked|banned)',
      'poor sender score',
      'mail flood',
      'blocked for abuse',
      'messages from .{1,60} (weren.t|were not) sent',
    ],
  },
  {
    reason: 'content',
    phrases: [
      'spam (content|detected|message|score|filter)',
      '(detected|classified|identified|marked|considered|rejected|blocked|flagged) as spam',
      '(is|be|looks like|appears to be|suspected) spam',
      'likely (to be )?(unsolicited|spam)',
      'unsolicited (mail|e-?mail|bulk|commercial|message)',
      'message content (rejected|not accepted)',
      'content (filter|rejected|policy)',
      '(blocked|rejected) because (of )?its content',
      '(virus|malware) (detected|found)',
      'contains? (a )?(virus|malware)',
      'infected (with|by)',
      'phishing',
      'suspicious (content|link|url|message)',
      'spam-?like',
      'scored as spam',
      ' - spam\\b',
    ],
  },
  {
    reason: 'policy',
    phrases: [
      'sender (policy|denied|blocked|rejected|not allowed|is not allowed|address rejected)',
      '(rejected|refused|blocked) (by|due to|because of) (the )?(local |our |the |security |organi[sz]ation(al)? |domain )*polic',
      'polic(y|ies) (violation|reasons|rejection|restriction)',
      'administrative prohibition',
      'not (authori[sz]ed|permitted|allowed) to send',
      'not accepting mail from',
      '(mail|messages) from .{1,60} (are|is) (refused|rejected|blocked|not accepted)',
      'blocked by (the )?recipient',
      'denied by (local |our |the )?polic',
      'please use the smtp server of your isp',
      'host network not allowed',
    ],
  },
];

const BY_REASON = BLOCK_WORDING.map(({ reason, phrases }) => ({ reason, rx: alternation([...phrases]) }));
/** Every reason's words in one expression: most notices name none, and are searched once. */
const ANY_BLOCK = alternation(BLOCK_WORDING.flatMap((w) => w.phrases));

/** The reason the words of a lower-cased notice name, in the order of BLOCK_WORDING (null: none). */
export function blockWording(lower: string): BlockReason | null {
  if (!ANY_BLOCK.test(lower)) return null;
  for (const { reason, rx } of BY_REASON) if (rx.test(lower)) return reason;
  return null;
}

/** The RFC 7372 codes (subject.detail) that are a block alone, and why. */
const BLOCK_CODES: ReadonlyMap<string, BlockReason> = new Map([
  ...['7.20', '7.21', '7.22', '7.23', '7.24', '7.25', '7.26', '7.29'].map((c) => [c, 'authentication'] as const),
  ['7.28', 'reputation'],
]);

export interface BlockEvidence {
  /** The code that decided hard or soft (an RFC 3463 code or an SMTP reply code), or null. */
  status: string | null;
  /** The notice or the diagnostic, lower-cased (read only when the status leaves it to the words). */
  lower: () => string;
  /** Whether the notice also says the address is dead (then it is not a block); asked before the block words are looked for. */
  dead: (lower: string) => boolean;
}

/** What the status alone says: a reason (a block whatever the words), 'no' (never a block), or 'words' (the words decide). */
export function blockByStatus(status: string | null): BlockReason | 'no' | 'words' {
  const code = status ?? '';
  if (!/^[45]\.\d{1,3}\.\d{1,3}$/.test(code)) return 'words';
  const subject = code.slice(2);
  if (!subject.startsWith('7.') && !subject.endsWith('.0')) return 'no';
  return BLOCK_CODES.get(subject) ?? 'words';
}

/** Whether a failure is a block, and why (null: it is not; hard or soft stands). */
export function blockOf(e: BlockEvidence): BlockReason | null {
  const byStatus = blockByStatus(e.status);
  if (byStatus === 'no') return null;
  if (byStatus !== 'words') return byStatus;
  const lower = e.lower();
  // Whether the address is dead is asked first: a free-text notice's caller knows it already.
  return e.dead(lower) ? null : blockWording(lower);
}

/** Whether a lower-cased text says the address is dead (the dead-address words of domain/mail-wording.ts). */
export const saysDead = (lower: string) => DEAD_WORDS.test(lower);

/**
 * Whether one SMTP answer (a rejection while we were sending, or a provider's bounce reason) is a
 * block: its first specific enhanced code, else its first one, else its reply code, and its words.
 */
export function smtpAnswerBlock(answer: string): BlockReason | null {
  const codes = codesIn(answer);
  return blockOf({ status: codes.specific ?? codes.first ?? codes.smtp, lower: () => answer.toLowerCase(), dead: saysDead });
}
