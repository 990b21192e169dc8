import OAuth2Server from '@node-oauth/oauth2-server';
import type { Context } from 'koa';
import type { ServiceDeps } from '../../../services/deps';
import { consentPage, errorPage, loginPage, OAUTH_PAGE_CSP } from '../../pages/oauth/pages';
import { checkAuthorizeRequest, redirectWith, type AuthorizeCheck } from '../../../services/oauth/authorize';
import { checkConsentCsrf, consentCsrf, loginCsrf, readBrowserSession, type BrowserSession } from '../../http/browser-session';
import { oauthServer } from '../../../services/oauth/server';
import { writeLibraryError } from './oauth-http';
import { withinRole } from '../../../core/scopes';

export function sendPage(ctx: Context, status: number, html: string): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set({ 'Cache-Control': 'no-store', 'Content-Security-Policy': OAUTH_PAGE_CSP });
  ctx.body = html;
}

function redirect(ctx: Context, location: string, status = 302): void {
  ctx.status = status;
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Location', location);
  ctx.body = '';
}

/** Handle the checks every authorize step shares. Returns the valid request, or null when answered. */
async function validate(
  ctx: Context,
  deps: ServiceDeps,
  input: Record<string, unknown>,
): Promise<Extract<AuthorizeCheck, { kind: 'ok' }> | null> {
  const check = await checkAuthorizeRequest(deps.db, input);
  if (check.kind === 'page_error') {
    sendPage(ctx, 400, errorPage(check.message));
    return null;
  }
  if (check.kind === 'redirect_error') {
    redirect(ctx, redirectWith(check.redirectUri, { error: check.error, error_description: check.description, state: check.state }));
    return null;
  }
  return check;
}

/** An app still in development can be authorized only by users of its own team. */
function developmentRefused(ctx: Context, check: Extract<AuthorizeCheck, { kind: 'ok' }>, session: BrowserSession): boolean {
  if (check.client.approved || check.client.teamId === session.teamId) return false;
  redirect(
    ctx,
    redirectWith(check.params.redirect_uri, {
      error: 'access_denied',
      error_description: 'This app is in development and can be authorized only by its own team',
      state: check.params.state,
    }),
  );
  return true;
}

function showLogin(
  ctx: Context,
  deps: ServiceDeps,
  check: Extract<AuthorizeCheck, { kind: 'ok' }>,
  extra: { error?: string; email?: string; status?: number } = {},
): void {
  const returnTo = new URLSearchParams(check.params as unknown as Record<string, string>).toString();
  const csrf = loginCsrf(ctx, deps.config.baseUrl);
  sendPage(ctx, extra.status ?? 200, loginPage({ appName: check.client.name, returnTo, csrf, error: extra.error, email: extra.email }));
}

/** GET /api/oauth/authorize: login page without a session, else the consent page. */
export async function showAuthorize(ctx: Context, deps: ServiceDeps): Promise<void> {
  const check = await validate(ctx, deps, ctx.query);
  if (!check) return;
  const session = await readBrowserSession(ctx, deps.db);
  if (!session) return showLogin(ctx, deps, check);
  if (developmentRefused(ctx, check, session)) return;
  const app = await deps.db('apps').where({ id: check.client.id }).first('website_url', 'live');
  // A grant never carries more than its user: what the role does not allow is shown apart and not granted.
  const granted = withinRole(check.scopes, session.role);
  sendPage(
    ctx,
    200,
    consentPage({
      appName: check.client.name,
      websiteUrl: app?.live?.website_url ?? app?.website_url ?? null,
      developmentApp: !check.client.approved,
      userEmail: session.email,
      scopes: granted,
      withheld: check.scopes.filter((s) => !granted.some((g) => g === s)),
      role: session.role,
      fields: { ...(check.params as unknown as Record<string, string>), csrf: consentCsrf(session.token) },
    }),
  );
}

/** The login form posts back its authorize parameters; re-validate them before anything else. */
export async function loginReturn(ctx: Context, deps: ServiceDeps, returnTo: unknown) {
  const params = typeof returnTo === 'string' && returnTo.length < 4000 ? Object.fromEntries(new URLSearchParams(returnTo)) : {};
  const check = await validate(ctx, deps, params);
  return check ? { check, params, showLogin: (extra: Parameters<typeof showLogin>[3]) => showLogin(ctx, deps, check, extra) } : null;
}

/** POST /api/oauth/authorize: the consent decision. Approve → code and state; deny → access_denied. */
export async function decideAuthorize(ctx: Context, deps: ServiceDeps, body: Record<string, unknown>): Promise<void> {
  const check = await validate(ctx, deps, body);
  if (!check) return;
  const session = await readBrowserSession(ctx, deps.db);
  if (!session) return showLogin(ctx, deps, check, { error: 'Your session has ended; sign in again.' });
  if (!checkConsentCsrf(session, body.csrf)) {
    return sendPage(ctx, 403, errorPage('The consent form expired or did not come from this site. Start again from the application.'));
  }
  if (developmentRefused(ctx, check, session)) return;
  const allowed = body.decision === 'approve' ? 'true' : 'false';
  const request = new OAuth2Server.Request({
    method: 'POST',
    query: {},
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: { ...check.params, allowed },
  });
  const response = new OAuth2Server.Response();
  const user = { id: session.userId, teamId: session.teamId, role: session.role };
  try {
    await oauthServer(deps.db).authorize(request, response, { authenticateHandler: { handle: async () => user } });
  } catch (err) {
    const location = response.get('location');
    if (!(err instanceof OAuth2Server.OAuthError) || !location || err.name === 'server_error') {
      return writeLibraryError(ctx, err);
    }
  }
  redirect(ctx, response.get('location'), 303);
}
