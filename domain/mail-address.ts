/**
 * Per-message addresses (VERP): the envelope sender `bounce+<token>@<bounce domain>` and the
 * Reply-To `reply+<token>@<reply domain>` carry the send's token, so whatever comes back names the
 * message it answers. Tokens are lowercase hex: some MTAs lowercase local parts.
 */
import { wordAt } from './mail-scan';

export type TokenAddressKind = 'bounce' | 'reply';

/** A token: 16 to 64 lowercase hex digits. */
const TOKEN = /^[0-9a-f]{16,64}$/;

/** Without one trailing dot (a fully qualified domain's root), as `.replace(/\.$/, '')`. */
const withoutTrailingDot = (domain: string) => (domain.endsWith('.') ? domain.slice(0, -1) : domain);

export function tokenAddress(kind: TokenAddressKind, token: string, domain: string): string {
  return `${kind}+${token}@${domain}`;
}

/** The domain part of an address, lowercased ('' when there is none). */
export function domainOf(address: string): string {
  const at = address.lastIndexOf('@');
  return at < 0
    ? ''
    : address
        .slice(at + 1)
        .toLowerCase()
        .replace(/\.$/, '');
}

/**
 * `{kind, token}` when `address` is one of our token addresses on the given domains, else null:
 * `bounce+` or `reply+` (any case), a token, `@`, then that kind's domain (any case, a trailing dot
 * allowed), in optional angle brackets. test/mail/token-address.test.ts compares it with the
 * one-expression reading `/^(bounce|reply)\+([^@]+)@(.+)$/i`.
 */
export function parseTokenAddress(
  address: string,
  domains: { bounce: string; reply: string },
): { kind: TokenAddressKind; token: string } | null {
  let a = address.trim();
  // One leading `<` and one trailing `>`, each on its own.
  if (a.startsWith('<')) a = a.slice(1);
  if (a.endsWith('>')) a = a.slice(0, -1);
  const kind: TokenAddressKind | null =
    a[6] === '+' && wordAt(a, 0, 'bounce') ? 'bounce' : a[5] === '+' && wordAt(a, 0, 'reply') ? 'reply' : null;
  if (!kind) return null;
  const at = a.indexOf('@', kind.length + 1);
  if (at < kind.length + 2 || at === a.length - 1) return null;
  const token = a.slice(kind.length + 1, at).toLowerCase();
  const domain = withoutTrailingDot(a.slice(at + 1).toLowerCase());
  if (domain !== domains[kind].toLowerCase() || !TOKEN.test(token)) return null;
  return { kind, token };
}

/** Whether a recipient's domain is one the inbound listener accepts mail for. */
export function acceptsRecipient(address: string, domains: { bounce: string; reply: string }): boolean {
  const d = domainOf(address);
  return d !== '' && (d === domains.bounce.toLowerCase() || d === domains.reply.toLowerCase());
}

/**
 * The queue id in a receiving server's answer to DATA, or null: `250 Ok: queued as <id>`
 * (SendGrid, whose id is the message's X-Message-Id; Postfix) or `250 2.0.0 Ok: queued as <id>`.
 */
export function smtpQueueId(response: string | null | undefined): string | null {
  const m = /queued as\s+<?([A-Za-z0-9._@+=:/-]{3,200}?)>?(?:\s|$)/i.exec(response ?? '');
  return m ? m[1] : null;
}

/**
 * The ids a SendGrid `sg_message_id` may start with: it is the X-Message-Id SendGrid answered at
 * DATA, then `.filter…`/`.recvd-…` parts. X-Message-Ids may hold dots themselves, so every
 * dot-separated prefix is a candidate (`a.b.c` → `a`, `a.b`, `a.b.c`).
 */
export function sendgridIdPrefixes(sgMessageId: string): string[] {
  const parts = sgMessageId.trim().split('.').slice(0, 12);
  return parts.map((_, i) => parts.slice(0, i + 1).join('.')).filter((p) => p.length >= 3);
}
