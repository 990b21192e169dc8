import { randomBytes } from 'node:crypto';
import { client } from '../helpers/http';
import { authorizeWithForms } from './forms';
import { form, REDIRECT, useCodeFlow } from './code-flow';

/**
 * Every way the authorization code flow is refused: the authorize step (a redirect error, or an
 * error page when the redirect itself cannot be trusted), the token and revoke endpoints (RFC 6749
 * errors, never a token), and the API with an expired or narrower token.
 */
const { w, app, token, authUrl, freshCode, exchange, me } = useCodeFlow();

describe('negative cases: each gets the RFC 6749 error and no token', () => {
  const noToken = (body: Record<string, unknown>) => {
    expect(body.access_token).toBeUndefined();
    expect(body.refresh_token).toBeUndefined();
  };

  it('a wrong redirect_uri shows an error page and never redirects', async () => {
    for (const redirect_uri of ['https://evil.example.com/callback', 'http://127.0.0.1:9/other', 'javascript:alert(1)']) {
      const res = await fetch(authUrl({ redirect_uri }).url, { redirect: 'manual' });
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(await res.text()).toContain('redirect_uri is not registered');
    }
  });

  it('an unknown client_id shows an escaped error page and never redirects', async () => {
    const res = await fetch(authUrl({ client_id: '<script>alert(1)</script>' }).url, { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    const html = await res.text();
    expect(html).not.toContain('<script>');
  });

  it('a redirect_uri at token time that differs from the authorization request is refused', async () => {
    const { code, verifier } = await freshCode();
    const res = await exchange(code, verifier, { redirect_uri: 'http://127.0.0.1:9/elsewhere' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_request');
    noToken(res.body);
  });

  it('a missing code_verifier is refused', async () => {
    const { code } = await freshCode();
    const res = await exchange(code, undefined);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_grant');
    noToken(res.body);
  });

  it('a wrong code_verifier is refused', async () => {
    const { code } = await freshCode();
    const res = await exchange(code, randomBytes(32).toString('base64url'));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_grant');
    noToken(res.body);
  });

  it('plain PKCE (and a missing challenge) is refused at the authorize step with a redirect error', async () => {
    for (const over of [
      { code_challenge_method: 'plain', code_challenge: 'x'.repeat(50) },
      { code_challenge: undefined, code_challenge_method: undefined },
    ]) {
      const a = authUrl(over);
      const res = await fetch(a.url, { redirect: 'manual' });
      expect(res.status).toBe(302);
      const loc = new URL(res.headers.get('location')!);
      expect(loc.searchParams.get('error')).toBe('invalid_request');
      expect(loc.searchParams.get('state')).toBe(a.state);
      expect(loc.searchParams.get('code')).toBeNull();
    }
  });

  it('a reused code is refused and revokes the tokens issued from its first use', async () => {
    const { code, verifier } = await freshCode();
    const first = await exchange(code, verifier);
    expect(first.status).toBe(200);
    expect((await me(first.body.access_token)).status).toBe(200);
    const second = await exchange(code, verifier);
    expect(second.status).toBe(400);
    expect(second.body.error).toBe('invalid_grant');
    noToken(second.body);
    expect((await me(first.body.access_token)).status).toBe(401);
    const refresh = await token({
      grant_type: 'refresh_token',
      refresh_token: first.body.refresh_token,
      client_id: app().client_id,
      client_secret: app().client_secret,
    });
    expect(refresh.body.error).toBe('invalid_grant');
  });

  it('an expired code is refused', async () => {
    const { code, verifier } = await freshCode();
    await w.tdb.db('oauth_codes').update({ expires_at: new Date(Date.now() - 1000) });
    const res = await exchange(code, verifier);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_grant');
    noToken(res.body);
  });

  it('a reused refresh token is refused and revokes the whole family', async () => {
    const { code, verifier } = await freshCode();
    const t0 = (await exchange(code, verifier)).body;
    const refresh = (rt: string) =>
      token({ grant_type: 'refresh_token', refresh_token: rt, client_id: app().client_id, client_secret: app().client_secret });
    const t1 = await refresh(t0.refresh_token);
    expect(t1.status).toBe(200);
    expect(t1.body.refresh_token).not.toBe(t0.refresh_token);
    const reuse = await refresh(t0.refresh_token);
    expect(reuse.status).toBe(400);
    expect(reuse.body.error).toBe('invalid_grant');
    noToken(reuse.body);
    // The family is gone: the newest tokens stop working too.
    expect((await me(t1.body.access_token)).status).toBe(401);
    expect((await refresh(t1.body.refresh_token)).body.error).toBe('invalid_grant');
  });

  it('an expired access token gets 401 token_expired', async () => {
    const { code, verifier } = await freshCode();
    const t = (await exchange(code, verifier)).body;
    await w.tdb.db('oauth_tokens').update({ access_expires_at: new Date(Date.now() - 1000) });
    const res = await me(t.access_token);
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('token_expired');
  });

  it('a wrong client secret is refused with invalid_client', async () => {
    const { code, verifier } = await freshCode();
    const res = await exchange(code, verifier, { client_secret: 'svc_cs_wrong' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_client');
    noToken(res.body);
    const basic = await fetch(`${w.app.baseUrl}/api/oauth/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${app().client_id}:nope`).toString('base64')}`,
      },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier }).toString(),
    });
    expect(basic.status).toBe(401);
    expect((await basic.json()).error).toBe('invalid_client');
  });

  it('a scope that was never granted: refused at authorize, on refresh, and on the API', async () => {
    const a = authUrl({ scope: 'user:read team:write' });
    const res = await fetch(a.url, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const loc = new URL(res.headers.get('location')!);
    expect(loc.searchParams.get('error')).toBe('invalid_scope');
    expect(loc.searchParams.get('code')).toBeNull();

    const { code, verifier } = await freshCode('user:read');
    const t = (await exchange(code, verifier)).body;
    const wider = await token({
      grant_type: 'refresh_token',
      refresh_token: t.refresh_token,
      scope: 'user:read forms:read',
      client_id: app().client_id,
      client_secret: app().client_secret,
    });
    expect(wider.status).toBe(400);
    expect(wider.body.error).toBe('invalid_scope');
    noToken(wider.body);

    const api = await client(w.app.baseUrl, t.access_token).get('/api/v1/forms');
    expect(api.status).toBe(403);
    expect(api.body.error.code).toBe('insufficient_scope');
    expect(api.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
  });

  it('denying consent redirects with access_denied and the state', async () => {
    const a = authUrl();
    const res = await authorizeWithForms(a.url, w.team, 'deny');
    const loc = new URL(res.location!);
    expect(loc.searchParams.get('error')).toBe('access_denied');
    expect(loc.searchParams.get('state')).toBe(a.state);
    expect(loc.searchParams.get('code')).toBeNull();
  });

  it('bad token requests get RFC 6749 errors, never a 500', async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{}, 'invalid_client'],
      [{ grant_type: 'urn:example:custom', client_id: app().client_id, client_secret: app().client_secret }, 'unsupported_grant_type'],
      [{ grant_type: 'password', client_id: app().client_id, client_secret: app().client_secret }, 'unauthorized_client'],
      [{ grant_type: 'authorization_code', client_id: app().client_id, client_secret: app().client_secret }, 'invalid_request'],
      [
        {
          grant_type: 'authorization_code',
          code: 'nope',
          redirect_uri: REDIRECT,
          code_verifier: 'a'.repeat(43),
          client_id: app().client_id,
          client_secret: app().client_secret,
        },
        'invalid_grant',
      ],
      [
        { grant_type: 'refresh_token', refresh_token: 'svc_rt_nope', client_id: app().client_id, client_secret: app().client_secret },
        'invalid_grant',
      ],
      [{ grant_type: 'refresh_token', refresh_token: 'x', client_id: 'unknown', client_secret: 'x' }, 'invalid_client'],
    ];
    for (const [body, error] of cases) {
      const res = await token(body);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(res.body.error).toBe(error);
      expect(typeof res.body.error_description).toBe('string');
    }
    const revoke = await fetch(
      `${w.app.baseUrl}/api/oauth/revoke`,
      form({ token: 'x', client_id: app().client_id, client_secret: 'wrong' }),
    );
    expect(revoke.status).toBe(401);
    expect((await revoke.json()).error).toBe('invalid_client');
    const unknown = await fetch(
      `${w.app.baseUrl}/api/oauth/revoke`,
      form({ token: 'svc_at_unknown', client_id: app().client_id, client_secret: app().client_secret }),
    );
    expect(unknown.status).toBe(200);
  });
});
