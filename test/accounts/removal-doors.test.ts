import { randomBytes, randomUUID } from 'node:crypto';
import { useApiWorld } from '../helpers/world';
import { client } from '../helpers/http';
import { addMember } from '../../services/team';
import { createSession } from '../../services/sessions';
import { issueToken } from '../../services/accounts/tokens';
import { s256Challenge } from '../../domain/pkce';
import { authorizeWithForms } from '../oauth/forms';
import { completeAppInput } from '../oauth/helpers';
import { testConfig } from '../helpers/config';

/**
 * Removal closes every door (docs/accounts.md "Members and roles"): after a member is removed,
 * their session, API key, OAuth access and refresh tokens, password-reset link, calendar feed
 * URL and password each answer as documented. Every door is tried open first, so the closed
 * answer is the removal's doing.
 */
const w = useApiWorld();
const owner = () => client(w.app.baseUrl, w.team.session);
const REDIRECT = 'http://127.0.0.1:9/cb';
const PASSWORD = 'a long password 1';

async function oauthTokens(app: { client_id: string; client_secret: string }, email: string, scope: string) {
  const verifier = randomBytes(32).toString('base64url');
  const url = `${w.app.baseUrl}/api/oauth/authorize?${new URLSearchParams({
    client_id: app.client_id,
    redirect_uri: REDIRECT,
    response_type: 'code',
    scope,
    state: 'st-1',
    code_challenge: s256Challenge(verifier),
    code_challenge_method: 'S256',
  })}`;
  const flow = await authorizeWithForms(url, { email, password: PASSWORD });
  const code = new URL(flow.location!).searchParams.get('code')!;
  return token({
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT,
    client_id: app.client_id,
    client_secret: app.client_secret,
    code_verifier: verifier,
  });
}
async function token(body: Record<string, string>) {
  const r = await fetch(`${w.app.baseUrl}/api/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(body).toString(),
  });
  return { status: r.status, body: await r.json() };
}

it('after removal: session, key, OAuth tokens, reset link, feed URL and password all stop working', async () => {
  const email = `leaver-${randomUUID().slice(0, 8)}@example.com`;
  const m = await addMember(
    { db: w.tdb.db, config: testConfig() },
    { teamId: w.team.teamId, values: { email, role: 'member', password: PASSWORD } },
  );
  const session = (await createSession(w.tdb.db, { userId: m.id })).token;
  const api = client(w.app.baseUrl, session);
  const key = (await api.post('/api/v1/api-keys', { scopes: ['forms:read'] })).body.data.api_key as string;
  const feed = (await api.post('/api/v1/calendar-feeds', {})).body.data.url as string;
  const app = (await owner().post('/api/v1/apps', completeAppInput({ redirect_uris: [REDIRECT], scopes: ['user:read', 'team:members'] })))
    .body.data;
  const tokens = await oauthTokens(app, email, 'user:read team:members');
  expect(tokens.status).toBe(200);
  const reset = await issueToken(
    { db: w.tdb.db },
    { kind: 'password_reset', userId: m.id, requestId: randomUUID(), expiresAt: new Date(Date.now() + 3600e3) },
  );
  const feedPath = feed.slice(feed.indexOf('/api/'));

  // Open before removal. The OAuth token carries only what the member's role allows.
  expect((await api.get('/api/v1/me')).status).toBe(200);
  expect((await client(w.app.baseUrl, key).get('/api/v1/forms')).status).toBe(200);
  expect((await client(w.app.baseUrl, tokens.body.access_token).get('/api/v1/me')).body.data.id).toBe(m.id);
  const beyondRole = await client(w.app.baseUrl, tokens.body.access_token).get('/api/v1/team/members');
  expect(beyondRole.status).toBe(403);
  expect(beyondRole.body.error.code).toBe('insufficient_scope');
  expect((await fetch(`${w.app.baseUrl}/account/reset-password/${reset}`)).status).toBe(200);
  expect((await fetch(`${w.app.baseUrl}${feedPath}`)).status).toBe(200);

  expect((await owner().delete(`/api/v1/team/members/${m.id}`)).status).toBe(204);

  expect((await api.get('/api/v1/me')).status).toBe(401);
  expect((await client(w.app.baseUrl, key).get('/api/v1/forms')).status).toBe(401);
  expect((await client(w.app.baseUrl, tokens.body.access_token).get('/api/v1/me')).status).toBe(401);
  const refreshed = await token({
    grant_type: 'refresh_token',
    refresh_token: tokens.body.refresh_token,
    client_id: app.client_id,
    client_secret: app.client_secret,
  });
  expect(refreshed.status).toBe(400);
  expect(refreshed.body.error).toBe('invalid_grant');
  expect((await fetch(`${w.app.baseUrl}/account/reset-password/${reset}`)).status).toBe(404);
  const gone = await fetch(`${w.app.baseUrl}${feedPath}`);
  expect(gone.status).toBe(404);
  expect(await gone.text()).not.toContain('BEGIN:VCALENDAR');
  expect((await client(w.app.baseUrl).post('/api/auth/login', { email, password: PASSWORD })).status).toBe(401);
});

it("a member creates only its own feed URL; an owner or admin creates anyone's", async () => {
  const m = await addMember(
    { db: w.tdb.db, config: testConfig() },
    { teamId: w.team.teamId, values: { email: `feed-${randomUUID().slice(0, 8)}@example.com`, role: 'member', password: PASSWORD } },
  );
  const api = client(w.app.baseUrl, (await createSession(w.tdb.db, { userId: m.id })).token);
  const theirs = await api.post('/api/v1/calendar-feeds', { user_id: w.team.userId });
  expect(theirs.status).toBe(403);
  expect(theirs.body.error.code).toBe('forbidden');
  expect((await api.post('/api/v1/calendar-feeds', { user_id: m.id })).status).toBe(201);
  expect((await owner().post('/api/v1/calendar-feeds', { user_id: m.id })).status).toBe(201);
});
