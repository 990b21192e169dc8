/**
 * Is an open a person, or a machine that fetched the pixel? Is a click a person, or a link scanner?
 * Pure heuristics (docs/sequences.md "Machine opens and scanner clicks"); the tracking routes and
 * the provider webhook feed them what they saw.
 */

export interface Fetch {
  /** The User-Agent header ('' when the request had none); null when unknown (a provider event without it). */
  userAgent: string | null;
  /** The client address as the server saw it (IPv4, IPv6 or IPv4-mapped IPv6), or null. */
  ip: string | null;
  /** HTTP method (scanners often send HEAD). */
  method?: string;
  /** When it happened. */
  at: Date;
  /** When the message was delivered (provider report) or accepted by the receiving SMTP server. */
  deliveredAt: Date | null;
}

export type Verdict = { machine: false } | { machine: true; reason: string };

/** A click this soon after delivery is a scanner's: no person reads and clicks that fast. */
export const SCANNER_CLICK_WINDOW_MS = 10_000;
/** An image proxy's fetch this soon after delivery is a prefetch, not a person opening the message. */
export const PROXY_PREFETCH_WINDOW_MS = 10_000;

/**
 * Apple Mail Privacy Protection fetches every remote image of every message through Apple's
 * proxies, opened or not. Its requests carry the bare user agent `Mozilla/5.0` (Apple Mail itself
 * sends a full WebKit string) and come from Apple's own networks: 17.0.0.0/8 (ARIN NET-17),
 * 2620:149::/32 (ARIN) and 2a01:b740::/32 (RIPE).
 */
const MPP_USER_AGENT = /^Mozilla\/5\.0$/;
const APPLE_V6 = [/^2620:0?149:/i, /^2a01:b740:/i];

/**
 * Security gateways, link scanners, preview fetchers and plain HTTP libraries: none of them is a
 * person reading mail. Matched anywhere in the user agent, case-insensitively.
 */
const MACHINE_AGENTS =
  /bot\b|crawler|spider|scanner|preview|headless|phantomjs|python-requests|python-urllib|curl\/|wget\/|go-http-client|java\/|okhttp|libwww|httpclient|axios\/|node-fetch|undici|barracuda|mimecast|proofpoint|ironport|fireeye|trendmicro|symantec|forcepoint|sophos|zscaler|bitdefender|cloudmark|safelinks|urldefense|skypeuripreview|slackbot|whatsapp|facebookexternalhit/i;

/** Mail providers' image proxies: they fetch when the message is displayed, unless they prefetch on delivery. */
const IMAGE_PROXIES = /GoogleImageProxy|YahooMailProxy|ggpht\.com/i;

function ipv4Of(ip: string): number[] | null {
  const v4 = /^(?:::ffff:)?(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/i.exec(ip.trim());
  if (!v4) return null;
  const parts = v4.slice(1).map(Number);
  return parts.every((p) => p <= 255) ? parts : null;
}

/** Whether the address is in one of Apple's own networks (where MPP's proxies run). */
export function isAppleNetwork(ip: string | null): boolean {
  if (!ip) return false;
  const v4 = ipv4Of(ip);
  if (v4) return v4[0] === 17;
  return APPLE_V6.some((r) => r.test(ip.trim()));
}

function soon(f: Fetch, windowMs: number): boolean {
  if (!f.deliveredAt) return false;
  const dt = f.at.getTime() - f.deliveredAt.getTime();
  return dt >= -1000 && dt <= windowMs; // a second of clock skew either way
}

function machineAgent(f: Fetch): string | null {
  if (f.method?.toUpperCase() === 'HEAD') return 'HEAD request';
  if (f.userAgent === null) return null;
  const ua = f.userAgent.trim();
  if (!ua) return 'no user agent';
  if (MPP_USER_AGENT.test(ua)) return 'Apple Mail Privacy Protection (user agent)';
  if (MACHINE_AGENTS.test(ua)) return 'scanner or bot user agent';
  return null;
}

/** An open-pixel fetch: a person, or a proxy/scanner that fetched it for them (or for no one). */
export function classifyOpen(f: Fetch): Verdict {
  const agent = machineAgent(f);
  if (agent) return { machine: true, reason: agent };
  if (isAppleNetwork(f.ip)) return { machine: true, reason: 'Apple Mail Privacy Protection (Apple network)' };
  if (IMAGE_PROXIES.test(f.userAgent ?? '') && soon(f, PROXY_PREFETCH_WINDOW_MS)) return { machine: true, reason: 'image proxy prefetch' };
  return { machine: false };
}

/** A tracked-link click: a person, or a link scanner (a security gateway follows every link on arrival). */
export function classifyClick(f: Fetch): Verdict {
  const agent = machineAgent(f);
  if (agent) return { machine: true, reason: agent };
  if (soon(f, SCANNER_CLICK_WINDOW_MS)) return { machine: true, reason: 'clicked within seconds of delivery' };
  return { machine: false };
}
