import { isIP } from 'node:net';

/**
 * Address checks for outbound webhook calls (SSRF). Pure: no DNS here; callers resolve first and
 * check every address they may connect to.
 *
 * Every address falls in one class:
 * - `public`: always allowed;
 * - `loopback` (127/8, ::1, `localhost`): only with `ALLOW_LOOPBACK_WEBHOOK_URLS` (on by default
 *   under `npm run dev`, for a local receiver; http is accepted for loopback only);
 * - `private` (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7, `*.internal`, `*.local`): only with
 *   `ALLOW_PRIVATE_WEBHOOK_URLS`, its own explicit setting;
 * - `forbidden`: link-local and metadata (169.254/16, fe80::/10, fd00:ec2::254, 100.100.100.200,
 *   metadata.google.internal), unspecified, multicast, documentation and reserved ranges. Never
 *   allowed, whatever the config says.
 */
export type AddressClass = 'public' | 'loopback' | 'private' | 'forbidden';

/** Which non-public classes the config lets through (`forbidden` never is). */
export interface UrlPolicy {
  loopback: boolean;
  private: boolean;
}

type V4Range = [number, number]; // network as uint32, prefix length

const V4_CLASSES: Array<[string, number, Exclude<AddressClass, 'public'>]> = [
  // Single metadata addresses first: they sit inside ranges that are otherwise private.
  ['100.100.100.200', 32, 'forbidden'], // Alibaba Cloud metadata (inside carrier-grade NAT)
  ['0.0.0.0', 8, 'forbidden'], // "this" network (0.0.0.0 reaches the local host)
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'private'], // carrier-grade NAT
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'forbidden'], // link-local, cloud metadata 169.254.169.254
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'forbidden'], // IETF protocol assignments (Oracle metadata 192.0.0.192)
  ['192.0.2.0', 24, 'forbidden'], // documentation
  ['192.88.99.0', 24, 'forbidden'], // 6to4 relay
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'forbidden'], // benchmarking
  ['198.51.100.0', 24, 'forbidden'], // documentation
  ['203.0.113.0', 24, 'forbidden'], // documentation
  ['224.0.0.0', 4, 'forbidden'], // multicast
  ['240.0.0.0', 4, 'forbidden'], // reserved, broadcast
];

/** Host names of cloud metadata services (they resolve to forbidden addresses anyway, where they resolve). */
const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata.goog', 'metadata', 'instance-data', 'instance-data.ec2.internal']);

function v4ToInt(ip: string): number {
  return ip.split('.').reduce((acc, part) => (acc << 8) + Number(part), 0) >>> 0;
}

const V4_RANGES: Array<[V4Range, Exclude<AddressClass, 'public'>]> = V4_CLASSES.map(([net, len, c]) => [[v4ToInt(net), len], c]);

function inV4Range(ip: number, [net, len]: V4Range): boolean {
  const mask = len === 0 ? 0 : (~0 << (32 - len)) >>> 0;
  return (ip & mask) >>> 0 === (net & mask) >>> 0;
}

/** Expand an IPv6 address into 8 groups (handles `::` and a trailing dotted IPv4). */
export function expandIPv6(ip: string): number[] {
  let s = ip.toLowerCase().split('%')[0];
  const dotted = s.match(/(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted) {
    const n = v4ToInt(dotted[1]);
    s = s.slice(0, -dotted[1].length) + `${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const parts = s.split('::');
  if (parts.length > 2) return [];
  const parse = (x: string) => (x ? x.split(':').map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16) : NaN)) : []);
  const head = parse(parts[0]);
  if (parts.length === 1) return head.length === 8 && !head.some(Number.isNaN) ? head : [];
  const tail = parse(parts[1]);
  const fill = 8 - head.length - tail.length;
  if (fill < 1 || [...head, ...tail].some(Number.isNaN)) return [];
  return [...head, ...Array<number>(fill).fill(0), ...tail];
}

function classifyV4(ip: string): AddressClass {
  const n = v4ToInt(ip);
  return V4_RANGES.find(([r]) => inV4Range(n, r))?.[1] ?? 'public';
}

function classifyV6(ip: string): AddressClass {
  const g = expandIPv6(ip);
  if (g.length !== 8) return 'forbidden';
  const embeddedV4 = () => `${g[6] >> 8}.${g[6] & 0xff}.${g[7] >> 8}.${g[7] & 0xff}`;
  if (g.every((x) => x === 0)) return 'forbidden'; // ::
  if (g.slice(0, 7).every((x) => x === 0) && g[7] === 1) return 'loopback'; // ::1
  // IPv4-mapped ::ffff:a.b.c.d and IPv4-compatible ::a.b.c.d: judge the IPv4 inside.
  if (g.slice(0, 5).every((x) => x === 0) && (g[5] === 0xffff || g[5] === 0)) return classifyV4(embeddedV4());
  // NAT64 64:ff9b::/96 reaches the IPv4 inside.
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return classifyV4(embeddedV4());
  if (g[0] === 0xfd00 && g[1] === 0x0ec2 && g.slice(2, 7).every((x) => x === 0) && g[7] === 0x254) return 'forbidden'; // AWS metadata fd00:ec2::254
  if ((g[0] & 0xfe00) === 0xfc00) return 'private'; // unique local fc00::/7
  if ((g[0] & 0xffc0) === 0xfe80) return 'forbidden'; // link-local fe80::/10
  if ((g[0] & 0xffc0) === 0xfec0) return 'forbidden'; // site-local fec0::/10 (deprecated)
  if ((g[0] & 0xff00) === 0xff00) return 'forbidden'; // multicast
  if (g[0] === 0x2001 && g[1] === 0x0db8) return 'forbidden'; // documentation
  if (g[0] === 0x2002) return classifyV4(`${g[1] >> 8}.${g[1] & 0xff}.${g[2] >> 8}.${g[2] & 0xff}`); // 6to4
  if (g[0] === 0x2001 && g[1] === 0) return 'forbidden'; // Teredo tunnels
  return 'public';
}

/** The class of an IP address; anything that is not an IP address is `forbidden`. */
export function classifyAddress(ip: string): AddressClass {
  const v = isIP(ip);
  if (v === 4) return classifyV4(ip);
  if (v === 6) return classifyV6(ip);
  return 'forbidden';
}

export function isAllowedClass(c: AddressClass, policy: UrlPolicy): boolean {
  return c === 'public' || (c === 'loopback' && policy.loopback) || (c === 'private' && policy.private);
}

/** Whether the policy lets a connection to this address through. */
export function isAllowedAddress(ip: string, policy: UrlPolicy): boolean {
  return isAllowedClass(classifyAddress(ip), policy);
}

/** The class of a URL host as written: an IP literal's class, or what its name says (null: resolve it). */
export function classifyHost(host: string): AddressClass | null {
  const h = host.toLowerCase().replace(/\.$/, '');
  if (isIP(h)) return classifyAddress(h);
  if (METADATA_NAMES.has(h)) return 'forbidden';
  if (h === 'localhost' || h.endsWith('.localhost')) return 'loopback';
  if (/\.(internal|local)$/.test(h)) return 'private';
  return null;
}

/** The reason given when an address or name is refused. */
export function refusal(c: AddressClass): string {
  if (c === 'forbidden') return 'must not point to a link-local, metadata or reserved address';
  if (c === 'loopback') return 'must not point to a loopback address (ALLOW_LOOPBACK_WEBHOOK_URLS allows it in development)';
  return 'must not point to a private address (ALLOW_PRIVATE_WEBHOOK_URLS allows it)';
}

/** URL host without IPv6 brackets. */
export function bareHost(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

/**
 * Static checks of a subscription URL (no DNS): https, or http to a loopback host when loopback is
 * allowed; no credentials; a host whose class is known from its text must be allowed by the policy.
 */
export function checkWebhookUrl(raw: string, policy: UrlPolicy): UrlCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'must be an absolute URL' };
  }
  const host = bareHost(url);
  const hostClass = host ? classifyHost(host) : null;
  if (url.protocol === 'http:') {
    if (!(policy.loopback && hostClass === 'loopback')) return { ok: false, reason: 'must use https' };
  } else if (url.protocol !== 'https:') {
    return { ok: false, reason: 'must use https' };
  }
  if (url.username || url.password) return { ok: false, reason: 'must not contain credentials' };
  if (!host) return { ok: false, reason: 'must have a host' };
  if (hostClass !== null && !isAllowedClass(hostClass, policy)) return { ok: false, reason: refusal(hostClass) };
  url.hash = '';
  return { ok: true, url };
}
