import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { s256Challenge } from '../../domain/pkce';
import { createTestTeam } from '../helpers/fixtures';
import { client } from '../helpers/http';
import { authorizeWithForms } from './forms';
import { completeAppInput } from './helpers';
import { useApiWorld } from '../helpers/world';
import { addMember } from '../../services/team';

const run = promisify(execFile);
const CLIENT = path.join(__dirname, 'client', 'oauth4webapi-client.mjs');
const REDIRECT = 'http://127.0.0.1:9/callback';

let oauthApp: { id: string; client_id: string; client_secret: string };

async function oauthClient(input: Record<string, unknown>) {
  const { stdout } = await run(process.execPath, [CLIENT, JSON.stringify(input)], { cwd: path.resolve(__dirname, '../..') });
  return JSON.parse(stdout.trim().split('\n').pop()!);
}

function form(body: Record<string, string>) {
  return { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(body).toString() };
}
const token = (body: Record<string, string>) =>
  fetch(`${w.app.baseUrl}/api/oauth/token`, form(body)).then(async (r) => ({ status: r.status, body: await r.json() }));

function authUrl(over: Record<string, string | undefined> = {}, verifier = randomBytes(32).toString('base64url')) {
  const q: Record<string, string | undefined> = {
    client_id: oauthApp.client_id,
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
    client_id: oauthApp.client_id,
    client_secret: oauthApp.client_secret,
    ...(verifier ? { code_verifier: verifier } : {}),
    ...over,
  });
const me = (accessToken: string) => client(w.app.baseUrl, accessToken).get('/api/v1/me');

const w = useApiWorld();
beforeAll(async () => {
  const res = await w.session.post(
    '/api/v1/apps',
    completeAppInput({ redirect_uris: [REDIRECT], scopes: ['user:read', 'forms:read', 'contacts:read'] }),
  );
  expect(res.status).toBe(201);
  oauthApp = res.body.data;
});

describe('the full authorization code flow with oauth4webapi (PKCE)', () => {
  it('authorizes, exchanges the code, calls the API, refreshes, revokes, and the call then fails', async () => {
    const base = {
      base: w.app.baseUrl,
      client_id: oauthApp.client_id,
      client_secret: oauthApp.client_secret,
      redirect_uri: REDIRECT,
      scope: 'user:read forms:read',
    };
    const started = await oauthClient({ ...base, step: 'start' });
    const consent = await authorizeWithForms(started.authorization_url, w.team);
    expect(consent.status).toBe(303);
    expect(consent.consentHtml).toContain('Acme Sync');
    expect(consent.consentHtml).toContain('See your profile');
    expect(consent.consentHtml).toContain('See your forms, their fields and settings');
    const callback = new URL(consent.location!);
    expect(callback.origin + callback.pathname).toBe(REDIRECT);
    expect(callback.searchParams.get('state')).toBe(started.state);

    const out = await oauthClient({
      ...base,
      step: 'finish',
      callback_url: callback.toString(),
      code_verifier: started.code_verifier,
      state: started.state,
    });
    expect(out.tokens.access_token).toMatch(/^svc_at_/);
    expect(out.tokens.refresh_token).toMatch(/^svc_rt_/);
    expect(out.tokens.token_type).toBe('bearer'); // oauth4webapi lower-cases it; the raw answer is checked below
    expect(out.tokens.expires_in).toBe(3600);
    expect(out.tokens.scope).toBe('user:read forms:read');
    expect(out.api.status).toBe(200);
    expect(out.api.body.data).toMatchObject({ id: w.team.userId, team_id: w.team.teamId, credential: 'oauth' });
    expect(out.api.body.data.scopes.sort()).toEqual(['forms:read', 'user:read']);
    expect(out.refreshed.access_token).not.toBe(out.tokens.access_token);
    expect(out.refreshed.refresh_token).not.toBe(out.tokens.refresh_token);
    expect(out.apiAfterRefresh.status).toBe(200);
    expect(out.revokeStatus).toBe(200);
    expect(out.apiAfterRevoke.status).toBe(401);
    expect(out.apiAfterRevoke.body.error.code).toBe('invalid_token');
    expect(out.refreshAfterRevoke).toBe('invalid_grant');

    // Only hashes are stored.
    const rows = await w.tdb.db('oauth_tokens').select('access_hash', 'refresh_hash');
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(out.tokens.access_token);
    expect(stored).not.toContain(out.tokens.refresh_token.slice(7));
    const appRow = await w.tdb.db('apps').where({ id: oauthApp.id }).first('client_secret_hash');
    expect(appRow!.client_secret_hash).not.toContain(oauthApp.client_secret.slice(7));
  });

  it('answers the token request in the documented shape', async () => {
    const { code, verifier } = await freshCode();
    const res = await exchange(code, verifier);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['access_token', 'expires_in', 'refresh_token', 'scope', 'token_type']);
    expect(res.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'user:read forms:read' });
  });
});

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
      client_id: oauthApp.client_id,
      client_secret: oauthApp.client_secret,
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
      token({ grant_type: 'refresh_token', refresh_token: rt, client_id: oauthApp.client_id, client_secret: oauthApp.client_secret });
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
        authorization: `Basic ${Buffer.from(`${oauthApp.client_id}:nope`).toString('base64')}`,
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
      client_id: oauthApp.client_id,
      client_secret: oauthApp.client_secret,
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
      [
        { grant_type: 'urn:example:custom', client_id: oauthApp.client_id, client_secret: oauthApp.client_secret },
        'unsupported_grant_type',
      ],
      [{ grant_type: 'password', client_id: oauthApp.client_id, client_secret: oauthApp.client_secret }, 'unauthorized_client'],
      [{ grant_type: 'authorization_code', client_id: oauthApp.client_id, client_secret: oauthApp.client_secret }, 'invalid_request'],
      [
        {
          grant_type: 'authorization_code',
          code: 'nope',
          redirect_uri: REDIRECT,
          code_verifier: 'a'.repeat(43),
          client_id: oauthApp.client_id,
          client_secret: oauthApp.client_secret,
        },
        'invalid_grant',
      ],
      [
        { grant_type: 'refresh_token', refresh_token: 'svc_rt_nope', client_id: oauthApp.client_id, client_secret: oauthApp.client_secret },
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
      form({ token: 'x', client_id: oauthApp.client_id, client_secret: 'wrong' }),
    );
    expect(revoke.status).toBe(401);
    expect((await revoke.json()).error).toBe('invalid_client');
    const unknown = await fetch(
      `${w.app.baseUrl}/api/oauth/revoke`,
      form({ token: 'svc_at_unknown', client_id: oauthApp.client_id, client_secret: oauthApp.client_secret }),
    );
    expect(unknown.status).toBe(200);
  });
});

describe('installs', () => {
  it('lists installed apps, counts installs, and disconnecting revokes the tokens', async () => {
    const { code, verifier } = await freshCode();
    const t = (await exchange(code, verifier)).body;
    const list = await client(w.app.baseUrl, w.team.apiKey).get('/api/v1/me/apps');
    expect(list.status).toBe(200);
    expect(list.body.data.map((a: { app_id: string }) => a.app_id)).toEqual([oauthApp.id]);
    expect((await client(w.app.baseUrl, w.team.session).get(`/api/v1/apps/${oauthApp.id}`)).body.data.installs).toBe(1);
    expect((await client(w.app.baseUrl, w.team.apiKey).delete(`/api/v1/me/apps/${oauthApp.id}`)).status).toBe(204);
    expect((await me(t.access_token)).status).toBe(401);
    expect((await client(w.app.baseUrl, w.team.apiKey).get('/api/v1/me/apps')).body.data).toEqual([]);
    expect((await client(w.app.baseUrl, w.team.session).get(`/api/v1/apps/${oauthApp.id}`)).body.data.installs).toBe(0);
    expect((await client(w.app.baseUrl, w.team.apiKey).delete(`/api/v1/me/apps/${oauthApp.id}`)).status).toBe(404);
  });

  it('a development app cannot be authorized by a user of another team', async () => {
    const other = await createTestTeam(w.tdb.db);
    const a = authUrl();
    const res = await authorizeWithForms(a.url, other);
    const loc = new URL(res.location!);
    expect(loc.searchParams.get('error')).toBe('access_denied');
    expect(loc.searchParams.get('code')).toBeNull();
  });
});

describe('a grant never carries more than its user', () => {
  it("a member's consent lists what its role does not allow apart, and the code and tokens carry only the rest", async () => {
    const created = await w.session.post(
      '/api/v1/apps',
      completeAppInput({ redirect_uris: [REDIRECT], scopes: ['user:read', 'team:members'] }),
    );
    expect(created.status).toBe(201);
    const teamApp = created.body.data as typeof oauthApp;
    const password = 'member long password';
    const email = `member-${randomBytes(4).toString('hex')}@example.com`;
    await addMember({ db: w.tdb.db }, { teamId: w.team.teamId, values: { email, role: 'member', password } });

    const a = authUrl({ client_id: teamApp.client_id, scope: 'user:read team:members' });
    const res = await authorizeWithForms(a.url, { email, password });
    expect(res.status).toBe(303);
    const [will, wont] = res.consentHtml!.split('it will not get');
    expect(will).toContain('(user:read)');
    expect(will).not.toContain('(team:members)');
    expect(wont).toContain('(team:members)');
    expect(res.consentHtml).toContain('your role (member)');

    const code = new URL(res.location!).searchParams.get('code')!;
    const t = await token({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      client_id: teamApp.client_id,
      client_secret: teamApp.client_secret,
      code_verifier: a.verifier,
    });
    expect(t.status).toBe(200);
    expect(t.body.scope).toBe('user:read');
    expect((await me(t.body.access_token)).body.data.scopes).toEqual(['user:read']);
    // The owner, whose role allows both, is offered both and gets both.
    const b = authUrl({ client_id: teamApp.client_id, scope: 'user:read team:members' });
    const owner = await authorizeWithForms(b.url, w.team);
    expect(owner.consentHtml).not.toContain('it will not get');
    const ownerCode = new URL(owner.location!).searchParams.get('code')!;
    const ownerToken = await token({
      grant_type: 'authorization_code',
      code: ownerCode,
      redirect_uri: REDIRECT,
      client_id: teamApp.client_id,
      client_secret: teamApp.client_secret,
      code_verifier: b.verifier,
    });
    expect(ownerToken.body.scope).toBe('user:read team:members');

    // Asking only for what the role does not allow: the page says it gets nothing, and approving
    // sends the app back invalid_scope with its state, no code.
    const c = authUrl({ client_id: teamApp.client_id, scope: 'team:members' });
    const none = await authorizeWithForms(c.url, { email, password });
    expect(none.consentHtml).toContain('your role allows none of what it asks for');
    const back = new URL(none.location!);
    expect(back.searchParams.get('error')).toBe('invalid_scope');
    expect(back.searchParams.get('state')).toBe(c.state);
    expect(back.searchParams.get('code')).toBeNull();
  });
});
