import type { Context } from 'koa';
import { randomToken, safeEqual, sha256Hex } from '../../core/crypto';
import type { Role } from '../../core/scopes';
import type { Db } from '../../db/knex';
import { resolveSession, SESSION_PREFIX } from '../../services/credentials/session';

/** The authorize flow's own cookie session: a dashboard session token in an HttpOnly cookie. */
export const SESSION_COOKIE = 'svc_oauth_sid';
export const LOGIN_CSRF_COOKIE = 'svc_oauth_csrf';
const COOKIE_PATH = '/api/oauth';

export interface BrowserSession {
  token: string;
  userId: string;
  teamId: string;
  email: string;
  /** The user's role now: what a consent may grant (services/oauth/model.ts validateScope). */
  role: Role;
}

export function setCookie(ctx: Context, baseUrl: string, name: string, value: string, maxAgeSeconds: number): void {
  const secure = baseUrl.startsWith('https:') ? '; Secure' : '';
  ctx.append('Set-Cookie', `${name}=${value}; Path=${COOKIE_PATH}; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure}`);
}

export async function readBrowserSession(ctx: Context, db: Db): Promise<BrowserSession | null> {
  const token = ctx.cookies.get(SESSION_COOKIE);
  if (!token || !token.startsWith(SESSION_PREFIX) || token.length > 200) return null;
  try {
    const p = await resolveSession({ db }, { token });
    if (!p) return null;
    const user = await db('users').where({ id: p.userId }).first('email');
    return user ? { token, userId: p.userId, teamId: p.teamId, email: user.email, role: p.role } : null;
  } catch {
    return null; // expired: sign in again
  }
}

/** The consent form's CSRF token: bound to the session, which only the HttpOnly cookie holds. */
export function consentCsrf(sessionToken: string): string {
  return sha256Hex(`oauth-consent-csrf:${sessionToken}`);
}

export function checkConsentCsrf(session: BrowserSession, sent: unknown): boolean {
  return typeof sent === 'string' && safeEqual(sent, consentCsrf(session.token));
}

/** Login CSRF: a double-submit cookie. Returns the value to put in the form. */
export function loginCsrf(ctx: Context, baseUrl: string): string {
  const existing = ctx.cookies.get(LOGIN_CSRF_COOKIE);
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
  const value = randomToken(32);
  setCookie(ctx, baseUrl, LOGIN_CSRF_COOKIE, value, 3600);
  return value;
}

export function checkLoginCsrf(ctx: Context, sent: unknown): boolean {
  const cookie = ctx.cookies.get(LOGIN_CSRF_COOKIE);
  return !!cookie && typeof sent === 'string' && safeEqual(sent, cookie);
}
