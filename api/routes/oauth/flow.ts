import { defineRoute } from '../../http/route';
import { checkLoginCsrf, setCookie, SESSION_COOKIE } from '../../http/browser-session';
import { decideAuthorize, loginReturn, sendPage, showAuthorize } from './consent';
import { handleRevokeRequest, handleTokenRequest } from './oauth-http';
import { errorPage } from '../../pages/oauth/pages';
import { login, SESSION_TTL_MS } from '../../../services/sessions';
import { ApiError } from '../../../core/errors';
import { formBody, revokeBody, tokenAnswer, tokenBody } from './schema';

export const oauthFlowRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/oauth/authorize',
    auth: 'public',
    summary: 'OAuth 2.0 authorization endpoint (code flow, PKCE S256): login page, then consent page',
    tags: ['oauth'],
    raw: true,
    response: {
      mediaType: 'text/html',
      description: 'The sign-in page, then the consent page (HTML); errors redirect to the client with error=…',
    },
    handler: ({ ctx, deps }) => showAuthorize(ctx, deps),
  }),
  defineRoute({
    method: 'post',
    path: '/api/oauth/authorize',
    auth: 'public',
    summary: 'Consent decision (form post from the consent page): redirects with code and state, or error=access_denied',
    tags: ['oauth'],
    accepts: ['form'],
    body: formBody,
    raw: true,
    response: {
      mediaType: 'text/html',
      status: 302,
      description: "A redirect to the client's redirect_uri with code and state (or error=access_denied)",
    },
    handler: ({ ctx, deps, body }) => decideAuthorize(ctx, deps, body),
  }),
  defineRoute({
    method: 'post',
    path: '/api/oauth/login',
    auth: 'public',
    summary: 'Sign-in form of the authorize flow: sets the HttpOnly session cookie and returns to the consent page',
    tags: ['oauth'],
    accepts: ['form'],
    body: formBody,
    raw: true,
    response: {
      mediaType: 'text/html',
      status: 303,
      description: 'A redirect back to the consent page; the sign-in page again (401) on a wrong password',
    },
    handler: async ({ ctx, deps, body }) => {
      const back = await loginReturn(ctx, deps, body.return_to);
      if (!back) return;
      if (!checkLoginCsrf(ctx, body.csrf)) {
        return sendPage(ctx, 403, errorPage('The sign-in form expired or did not come from this site. Start again from the application.'));
      }
      const email = typeof body.email === 'string' ? body.email.trim().slice(0, 320) : '';
      const password = typeof body.password === 'string' ? body.password.slice(0, 1024) : '';
      try {
        if (!email || !password) throw new ApiError(401, 'invalid_token', 'Enter your email and password.');
        const session = await login(deps, { email, password, client: { ip: ctx.ip, userAgent: ctx.get('user-agent') } });
        setCookie(ctx, deps.config.baseUrl, SESSION_COOKIE, session.token, Math.floor(SESSION_TTL_MS / 1000));
      } catch (err) {
        if (!(err instanceof ApiError) || (err.status !== 401 && err.status !== 429)) throw err;
        if (err.status === 429) {
          if (err.headers?.['Retry-After']) ctx.set('Retry-After', err.headers['Retry-After']);
          return back.showLogin({ error: 'Too many sign-in attempts. Wait a moment, then try again.', email, status: 429 });
        }
        return back.showLogin({ error: 'Wrong email or password.', email, status: 401 });
      }
      ctx.status = 303;
      ctx.set('Cache-Control', 'no-store');
      ctx.set('Location', `/api/oauth/authorize?${new URLSearchParams(back.params)}`);
      ctx.body = '';
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/oauth/token',
    auth: 'public',
    summary: 'OAuth 2.0 token endpoint: authorization_code (with PKCE code_verifier) and refresh_token grants; errors in RFC 6749 form',
    tags: ['oauth'],
    accepts: ['form'],
    body: tokenBody,
    errorShape: 'oauth',
    raw: true,
    response: tokenAnswer,
    handler: ({ ctx, deps, body }) => handleTokenRequest(ctx, deps.db, body),
  }),
  defineRoute({
    method: 'post',
    path: '/api/oauth/revoke',
    auth: 'public',
    summary: 'OAuth 2.0 token revocation (RFC 7009): access or refresh token; 200 with an empty body, errors in RFC 6749 form',
    tags: ['oauth'],
    accepts: ['form'],
    body: revokeBody,
    errorShape: 'oauth',
    raw: true,
    response: { mediaType: 'text/plain', description: 'RFC 7009: 200 with an empty body, whether or not the token was valid' },
    handler: ({ ctx, deps, body }) => handleRevokeRequest(ctx, deps.db, body),
  }),
];
