import { randomBytes } from 'node:crypto';
import { s256Challenge } from '../../domain/pkce';
import { client } from '../helpers/http';
import { useApiWorld } from '../helpers/world';
import { authorizeWithForms } from './forms';
import { completeAppInput } from './helpers';

/** The redirect URI the suites' OAuth app registers (nothing listens there: redirects are read, not followed). */
export const REDIRECT = 'http://127.0.0.1:9/callback';

export interface OAuthAppCredentials {
  id: string;
  client_id: string;
  client_secret: string;
}

/** A form-encoded POST, as an OAuth client sends to the token and revoke endpoints. */
export function form(body: Record<string, string>) {
  return { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(body).toString() };
}

/**
 * A suite's world with one registered OAuth app (created by its beforeAll), and the steps of the
 * authorization code flow against it: the authorize URL, a fresh code, its exchange, the token endpoint.
 */
export function useCodeFlow() {
  const w = useApiWorld();
  let oauthApp: OAuthAppCredentials | undefined;
  beforeAll(async () => {
    const res = await w.session.post(
      '/api/v1/apps',
      completeAppInput({ redirect_uris: [REDIRECT], scopes: ['user:read', 'forms:read', 'contacts:read'] }),
    );
    expect(res.status).toBe(201);
    oauthApp = res.body.data;
  });
  const app = (): OAuthAppCredentials => {
    if (!oauthApp) throw new Error('the OAuth app is created in beforeAll');
    return oauthApp;
  };

  const token = (body: Record<string, string>) =>
    fetch(`${w.app.baseUrl}/api/oauth/token`, form(body)).then(async (r) => ({ status: r.status, body: await r.json() }));

  function authUrl(over: Record<string, string | undefined> = {}, verifier = randomBytes(32).toString('base64url')) {
    const q: Record<string, string | undefined> = {
      client_id: app().client_id,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'user:read forms:read',
      state: 'st-' + randomBytes(6).toString('hex'),
      code_challenge: s256Challenge(verifier),
      code_challenge_method: 'S256',
      ...over,
    };
    const u = new URL(`${w.app.baseUrl}/api/oauth/authorize`);
    for (const [k, v] of Object.entries(q)) if (v !== undefined) u.searchParams.set(k, v);
    return { url: u.toString(), verifier, state: q.state! };
  }

  /** A fresh authorization code (and its verifier) for the test team's owner. */
  async function freshCode(scope = 'user:read forms:read') {
    const a = authUrl({ scope });
    const res = await authorizeWithForms(a.url, w.team);
    const loc = new URL(res.location!);
    return { code: loc.searchParams.get('code')!, verifier: a.verifier };
  }

  const exchange = (code: string, verifier: string | undefined, over: Record<string, string> = {}) =>
    token({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      client_id: app().client_id,
      client_secret: app().client_secret,
      ...(verifier ? { code_verifier: verifier } : {}),
      ...over,
    });

  const me = (accessToken: string) => client(w.app.baseUrl, accessToken).get('/api/v1/me');

  return { w, app, token, authUrl, freshCode, exchange, me };
}
