import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { bareHost, checkWebhookUrl, classifyAddress, isAllowedClass, refusal, type UrlPolicy } from '../../domain/ssrf';

export interface ResolvedTarget {
  url: URL;
  /** The address the request must connect to (pinned: no second lookup can rebind it). */
  address: string;
  family: 4 | 6;
}

export class BlockedTargetError extends Error {}

/** Every address of a host (A and AAAA, /etc/hosts included), or the literal itself. */
export async function resolveHost(host: string, timeoutMs = 3000): Promise<Array<{ address: string; family: 4 | 6 }>> {
  const v = isIP(host);
  if (v) return [{ address: host, family: v as 4 | 6 }];
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`DNS lookup of ${host} timed out`)), timeoutMs);
  });
  try {
    const all = await Promise.race([lookup(host, { all: true, verbatim: true }), timeout]);
    return all.map((a) => ({ address: a.address, family: a.family as 4 | 6 }));
  } finally {
    clearTimeout(timer);
  }
}

/** The first address the policy refuses, with its class. */
function firstRefused(addresses: Array<{ address: string }>, policy: UrlPolicy) {
  for (const a of addresses) {
    const c = classifyAddress(a.address);
    if (!isAllowedClass(c, policy)) return { address: a.address, class: c };
  }
  return null;
}

/**
 * Delivery-time check: resolve the URL's host and refuse it when any address is not allowed by the
 * policy (link-local and metadata never are). Returns the address to pin.
 */
export async function resolveDeliveryTarget(rawUrl: string, policy: UrlPolicy): Promise<ResolvedTarget> {
  const checked = checkWebhookUrl(rawUrl, policy);
  if (!checked.ok) throw new BlockedTargetError(`URL refused: ${checked.reason}`);
  const addresses = await resolveHost(bareHost(checked.url));
  if (addresses.length === 0) throw new Error('DNS lookup returned no address');
  const bad = firstRefused(addresses, policy);
  if (bad) throw new BlockedTargetError(`URL refused: ${bareHost(checked.url)} resolves to ${bad.address}: ${refusal(bad.class)}`);
  return { url: checked.url, address: addresses[0].address, family: addresses[0].family };
}

/**
 * Save-time check. The static rules always apply; a host name is resolved too and refused when it
 * points to a blocked address. A name that does not resolve now is accepted (DNS may be transient),
 * since every delivery checks again.
 */
export async function checkSubscriptionUrl(
  rawUrl: string,
  policy: UrlPolicy,
): Promise<{ ok: true; url: string } | { ok: false; reason: string }> {
  const checked = checkWebhookUrl(rawUrl, policy);
  if (!checked.ok) return checked;
  const host = bareHost(checked.url);
  if (!isIP(host)) {
    let addresses: Array<{ address: string }> = [];
    try {
      addresses = await resolveHost(host, 2000);
    } catch {
      addresses = [];
    }
    const bad = firstRefused(addresses, policy);
    if (bad) return { ok: false, reason: refusal(bad.class) };
  }
  return { ok: true, url: checked.url.toString() };
}
