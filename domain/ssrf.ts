import { isIP } from 'node:net';

/**
 * Address checks for outbound webhook calls (SSRF). Pure: no DNS here; callers resolve first and
 * check every address they may connect to.
 */

type V4Range = [number, number]; // network as uint32, prefix length

const V4_BLOCKED: Array<[string, number]> = [
  ['0.0.0.0', 8], // "this" network
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT (also Alibaba's metadata 100.100.100.200)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata 169.254.169.254
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];

function v4ToInt(ip: string): number {
  return ip.split('.').reduce((acc, part) => (acc << 8) + Number(part), 0) >>> 0;
}

const V4_RANGES: V4Range[] = V4_BLOCKED.map(([net, len]) => [v4ToInt(net), len]);

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

function isBlockedV4(ip: string): boolean {
  const n = v4ToInt(ip);
  return V4_RANGES.some((r) => inV4Range(n, r));
}

function isBlockedV6(ip: string): boolean {
  const g = expandIPv6(ip);
  if (g.length !== 8) return true;
  const embeddedV4 = () => `${g[6] >> 8}.${g[6] & 0xff}.${g[7] >> 8}.${g[7] & 0xff}`;
  if (g.every((x) => x === 0)) return true; // ::
  if (g.slice(0, 7).every((x) => x === 0) && g[7] === 1) return true; // ::1
  // IPv4-mapped ::ffff:a.b.c.d and IPv4-compatible ::a.b.c.d: judge the IPv4 inside.
  if (g.slice(0, 5).every((x) => x === 0) && (g[5] === 0xffff || g[5] === 0)) return isBlockedV4(embeddedV4());
  // NAT64 64:ff9b::/96 reaches the IPv4 inside.
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return isBlockedV4(embeddedV4());
  if ((g[0] & 0xfe00) === 0xfc00) return true; // unique local fc00::/7 (AWS metadata fd00:ec2::254)
  if ((g[0] & 0xffc0) === 0xfe80) return true; // link-local fe80::/10
  if ((g[0] & 0xffc0) === 0xfec0) return true; // site-local fec0::/10 (deprecated)
  if ((g[0] & 0xff00) === 0xff00) return true; // multicast
  if (g[0] === 0x2001 && g[1] === 0x0db8) return true; // documentation
  if (g[0] === 0x2002) return isBlockedV4(`${g[1] >> 8}.${g[1] & 0xff}.${g[2] >> 8}.${g[2] & 0xff}`); // 6to4
  if (g[0] === 0x2001 && g[1] === 0) return true; // Teredo tunnels
  return false;
}

/** True for private, loopback, link-local, metadata, multicast, reserved or unparseable addresses. */
export function isBlockedAddress(ip: string): boolean {
  const v = isIP(ip);
  if (v === 4) return isBlockedV4(ip);
  if (v === 6) return isBlockedV6(ip);
  return true;
}

export function isLoopbackAddress(ip: string): boolean {
  const v = isIP(ip);
  if (v === 4) return ip.startsWith('127.');
  if (v === 6) {
    const g = expandIPv6(ip);
    if (g.slice(0, 7).every((x) => x === 0) && g[7] === 1) return true;
    return g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff && g[6] >> 8 === 127;
  }
  return false;
}

/** URL host without IPv6 brackets. */
export function bareHost(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return h === 'localhost' || h.endsWith('.localhost') || isLoopbackAddress(h);
}

export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

/**
 * Static checks of a subscription URL (no DNS): https, or http to a loopback host when private
 * addresses are allowed; no credentials; an IP literal must not be blocked unless allowed.
 */
export function checkWebhookUrl(raw: string, allowPrivate: boolean): UrlCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'must be an absolute URL' };
  }
  const host = bareHost(url);
  if (url.protocol === 'http:') {
    if (!(allowPrivate && isLoopbackHost(host))) return { ok: false, reason: 'must use https' };
  } else if (url.protocol !== 'https:') {
    return { ok: false, reason: 'must use https' };
  }
  if (url.username || url.password) return { ok: false, reason: 'must not contain credentials' };
  if (!host) return { ok: false, reason: 'must have a host' };
  if (!allowPrivate) {
    if (isIP(host) && isBlockedAddress(host)) return { ok: false, reason: 'must not point to a private, loopback or link-local address' };
    if (isLoopbackHost(host) || /\.(internal|local)$/i.test(host)) {
      return { ok: false, reason: 'must not point to a private, loopback or link-local address' };
    }
  }
  url.hash = '';
  return { ok: true, url };
}
