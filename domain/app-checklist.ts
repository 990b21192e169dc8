/**
 * Pure rules of the developer portal: categories, the submission checklist, icon and redirect URI
 * checks, and which edits of an approved app are minor (live at once) or major (re-review).
 */

export const APP_CATEGORIES = [
  'Notifications',
  'CRM',
  'Automation',
  'Analytics',
  'Email Marketing',
  'Productivity',
  'Payments',
  'Database',
  'Developer Tools',
] as const;
export type AppCategory = (typeof APP_CATEGORIES)[number];

export const DESCRIPTION_MAX = 500;
export const SHORT_DESCRIPTION_MAX = 140;
export const ICON_SIZE = 512;
export const ICON_MAX_BYTES = 5 * 1024 * 1024;
export const MIN_SCREENSHOTS = 2;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export interface PngInfo {
  width: number;
  height: number;
  bytes: number;
}

/** Decode `data:image/png;base64,…` or bare base64. Null when it is not base64. */
export function decodeIcon(value: string): Buffer | null {
  const m = /^data:([a-z0-9.+/-]+);base64,(.*)$/is.exec(value.trim());
  const b64 = (m ? m[2] : value).replace(/\s+/g, '');
  if (m && m[1].toLowerCase() !== 'image/png') return null;
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64) || b64.length === 0) return null;
  return Buffer.from(b64, 'base64');
}

/** Read width and height from the PNG IHDR chunk (bytes 16–23). Null when it is not a PNG. */
export function readPngHeader(buf: Buffer): PngInfo | null {
  if (buf.length < 24 || !buf.subarray(0, 8).equals(PNG_SIGNATURE)) return null;
  if (buf.subarray(12, 16).toString('ascii') !== 'IHDR') return null;
  return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20), bytes: buf.length };
}

/** Problems of an icon against the brand rule (512x512 PNG, at most 5 MB); empty when fine. */
export function iconProblems(info: PngInfo | null): string[] {
  if (!info) return ['icon must be a PNG image'];
  const out: string[] = [];
  if (info.width !== ICON_SIZE || info.height !== ICON_SIZE)
    out.push(`icon must be ${ICON_SIZE}x${ICON_SIZE} pixels (got ${info.width}x${info.height})`);
  if (info.bytes > ICON_MAX_BYTES) out.push('icon must be at most 5 MB');
  return out;
}

function isLoopbackHost(host: string): boolean {
  return host === '127.0.0.1' || host === 'localhost' || host === '[::1]';
}

/** https, or loopback http with a port (RFC 8252); no fragment, no credentials. */
export function redirectUriProblem(uri: string, opts: { httpsOnly?: boolean } = {}): string | null {
  let u: URL;
  try {
    u = new URL(uri);
  } catch {
    return 'is not a valid URL';
  }
  if (u.hash || uri.includes('#')) return 'must not contain a fragment';
  if (u.username || u.password) return 'must not contain credentials';
  if (u.protocol === 'https:') return null;
  if (!opts.httpsOnly && u.protocol === 'http:' && isLoopbackHost(u.hostname)) return null;
  return opts.httpsOnly ? 'must use https' : 'must use https (or http on a loopback address)';
}

/** Exact match, apart from the port of a loopback http redirect (RFC 8252 §7.3). */
export function redirectUriMatches(registered: readonly string[], candidate: string): boolean {
  if (registered.includes(candidate)) return true;
  let c: URL;
  try {
    c = new URL(candidate);
  } catch {
    return false;
  }
  if (c.protocol !== 'http:' || !isLoopbackHost(c.hostname)) return false;
  return registered.some((r) => {
    try {
      const u = new URL(r);
      return u.protocol === 'http:' && u.hostname === c.hostname && u.pathname === c.pathname && u.search === c.search;
    } catch {
      return false;
    }
  });
}

export interface AppDraft {
  name: string | null;
  description: string | null;
  short_description: string | null;
  website_url: string | null;
  privacy_policy_url: string | null;
  terms_url: string | null;
  category: string | null;
  redirect_uris: readonly string[];
  scopes: readonly string[];
  screenshots: readonly string[];
  icon: PngInfo | null;
}

export interface MissingItem {
  path: string;
  message: string;
}

const blank = (s: string | null | undefined) => !s || s.trim() === '';

/** Every item the submission checklist still misses; empty when the app may be submitted. */
export function submissionChecklist(app: AppDraft): MissingItem[] {
  const out: MissingItem[] = [];
  const need = (path: string, message: string) => out.push({ path, message });
  if (blank(app.name)) need('name', 'app name is required');
  if (blank(app.description)) need('description', 'description is required');
  else if (app.description!.length > DESCRIPTION_MAX) need('description', `description must be at most ${DESCRIPTION_MAX} characters`);
  if (blank(app.short_description)) need('short_description', 'short description is required');
  else if (app.short_description!.length > SHORT_DESCRIPTION_MAX)
    need('short_description', `short description must be at most ${SHORT_DESCRIPTION_MAX} characters`);
  if (blank(app.website_url)) need('website_url', 'website URL is required');
  if (blank(app.privacy_policy_url)) need('privacy_policy_url', 'privacy policy URL is required');
  if (blank(app.terms_url)) need('terms_url', 'terms of service URL is required');
  if (!app.category || !(APP_CATEGORIES as readonly string[]).includes(app.category)) {
    need('category', `one category is required: ${APP_CATEGORIES.join(', ')}`);
  }
  if (app.redirect_uris.length === 0) need('redirect_uris', 'at least one OAuth callback URL is required');
  app.redirect_uris.forEach((u, i) => {
    const p = redirectUriProblem(u, { httpsOnly: true });
    if (p) need(`redirect_uris.${i}`, `callback URL ${p}`);
  });
  if (app.scopes.length === 0) need('scopes', 'at least one scope is required');
  if (app.screenshots.length < MIN_SCREENSHOTS) need('screenshots', `at least ${MIN_SCREENSHOTS} screenshots are required`);
  if (!app.icon) need('icon', `an icon is required: a ${ICON_SIZE}x${ICON_SIZE} PNG of at most 5 MB`);
  else for (const m of iconProblems(app.icon)) need('icon', m);
  return out;
}

/** Fields whose change on an approved app needs a new review. */
export const MAJOR_FIELDS = ['scopes', 'redirect_uris'] as const;

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');

/** True when the patch changes scopes or redirect URIs. */
export function isMajorChange(
  current: { scopes: readonly string[]; redirect_uris: readonly string[] },
  patch: { scopes?: readonly string[]; redirect_uris?: readonly string[] },
): boolean {
  return (
    (patch.scopes !== undefined && !sameSet(current.scopes, patch.scopes)) ||
    (patch.redirect_uris !== undefined && !sameSet(current.redirect_uris, patch.redirect_uris))
  );
}
