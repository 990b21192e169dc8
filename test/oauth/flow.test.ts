import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { createTestTeam } from '../helpers/fixtures';
import { client } from '../helpers/http';
import { addMember } from '../../services/team';
import { REDIRECT, useCodeFlow, type OAuthAppCredentials } from './code-flow';
import { authorizeWithForms } from './forms';
import { completeAppInput } from './helpers';
import { testConfig } from '../helpers/config';

/**
 * The authorization code flow that works: a real OAuth client library (oauth4webapi) through every
 * step, the token answer's shape, installs, and a grant narrowed to what its user's role allows.
 * The refused requests are in refused.test.ts.
 */
const run = promisify(execFile);
const CLIENT = path.join(__dirname, 'client', 'oauth4webapi-client.mjs');

async function oauthClient(input: Record<string, unknown>) {
  const { stdout } = await run(process.execPath, [CLIENT, JSON.stringify(input)], { cwd: path.resolve(__dirname, '../..') });
  return JSON.parse(stdout.trim().split('\n').pop()!);
}

const { w, app, token, authUrl, freshCode, exchange, me } = useCodeFlow();

describe('the full authorization code flow with oauth4webapi (PKCE)', () => {
  it('authorizes, exchanges the code, calls the API, refreshes, revokes, and the call then fails', async () => {
    const base = {
      base: w.app.baseUrl,
      client_id: app().client_id,
      client_secret: app().client_secret,
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
    const appRow = await w.tdb.db('apps').where({ id: app().id }).first('client_secret_hash');
    expect(appRow!.client_secret_hash).not.toContain(app().client_secret.slice(7));
  });

  it('answers the token request in the documented shape', async () => {
    const { code, verifier } = await freshCode();
    const res = await exchange(code, verifier);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['access_token', 'expires_in', 'refresh_token', 'scope', 'token_type']);
    expect(res.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'user:read forms:read' });
  });
});

describe('installs', () => {
  it('lists installed apps, counts installs, and disconnecting revokes the tokens', async () => {
    const { code, verifier } = await freshCode();
    const t = (await exchange(code, verifier)).body;
    const list = await client(w.app.baseUrl, w.team.apiKey).get('/api/v1/me/apps');
    expect(list.status).toBe(200);
    expect(list.body.data.map((a: { app_id: string }) => a.app_id)).toEqual([app().id]);
    expect((await client(w.app.baseUrl, w.team.session).get(`/api/v1/apps/${app().id}`)).body.data.installs).toBe(1);
    expect((await client(w.app.baseUrl, w.team.apiKey).delete(`/api/v1/me/apps/${app().id}`)).status).toBe(204);
    expect((await me(t.access_token)).status).toBe(401);
    expect((await client(w.app.baseUrl, w.team.apiKey).get('/api/v1/me/apps')).body.data).toEqual([]);
    expect((await client(w.app.baseUrl, w.team.session).get(`/api/v1/apps/${app().id}`)).body.data.installs).toBe(0);
    expect((await client(w.app.baseUrl, w.team.apiKey).delete(`/api/v1/me/apps/${app().id}`)).status).toBe(404);
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
    const teamApp = created.body.data as OAuthAppCredentials;
    const password = 'member long password';
    const email = `member-${randomBytes(4).toString('hex')}@example.com`;
    await addMember({ db: w.tdb.db, config: testConfig() }, { teamId: w.team.teamId, values: { email, role: 'member', password } });

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
