import { client } from '../helpers/http';
import { createTestTeam } from '../helpers/fixtures';
import { addMember } from '../../services/team';
import { LOGIN_FREE_FAILURES } from '../../services/accounts/throttle';
import { clearCredentialCache } from '../../services/credentials/cache';
import { linkToken, mailsTo, postForm, unique, useAccountsWorld } from './support';
import { randomBytes } from 'node:crypto';
import { s256Challenge } from '../../domain/pkce';
import { authorizeWithForms } from '../oauth/forms';
import { completeAppInput } from '../oauth/helpers';
import { testConfig } from '../helpers/config';

/** The profile (/api/v1/me), email change by confirmation, my sessions, and the sign-in throttle. */
const w = useAccountsWorld({ env: { TRUST_PROXY_HOPS: '1' } });
const login = (email: string, password: string, ip = '127.0.0.1', ua = 'jest') =>
  client(w.app.baseUrl).post('/api/auth/login', { email, password }, { 'x-forwarded-for': ip, 'user-agent': ua });

async function user(password = 'a long password') {
  const u = await addMember(
    { db: w.tdb.db, config: testConfig() },
    { teamId: w.team.teamId, values: { email: unique('me'), role: 'member', password } },
  );
  return { ...u, password };
}

describe('profile', () => {
  it('reads and updates name, timezone and avatar URL; needs user:read and user:write', async () => {
    const u = await user();
    const me = client(w.app.baseUrl, (await login(u.email, u.password)).body.data.token);
    const got = await me.get('/api/v1/me');
    expect(got.status).toBe(200);
    expect(got.body.data).toMatchObject({ id: u.id, email: u.email, avatar_url: null, credential: 'session' });
    const patched = await me.patch('/api/v1/me', { name: 'Uma', timezone: 'Europe/Paris', avatar_url: 'https://cdn.example.com/a.png' });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ name: 'Uma', timezone: 'Europe/Paris', avatar_url: 'https://cdn.example.com/a.png' });
    expect((await me.patch('/api/v1/me', { avatar_url: null })).body.data.avatar_url).toBeNull();
    expect((await me.patch('/api/v1/me', { avatar_url: 'http://insecure.example.com/a.png' })).status).toBe(400);
    expect((await me.patch('/api/v1/me', { avatar_url: 'javascript:alert(1)' })).status).toBe(400);
    expect((await me.patch('/api/v1/me', { timezone: 'Mars/Base' })).status).toBe(400);
    expect((await me.patch('/api/v1/me', { nickname: 'x' })).status).toBe(400);
    expect((await client(w.app.baseUrl).get('/api/v1/me')).status).toBe(401);
    expect((await client(w.app.baseUrl, await w.team.keyWith(['user:read'])).patch('/api/v1/me', { name: 'No' })).status).toBe(403);
    expect((await client(w.app.baseUrl, await w.team.keyWith(['user:write'])).get('/api/v1/me')).status).toBe(403);
  });

  it('changes the email only with the password and after confirmation from the new address', async () => {
    const u = await user();
    const me = client(w.app.baseUrl, (await login(u.email, u.password)).body.data.token);
    const next = unique('next');
    const same = await me.patch('/api/v1/me', { email: u.email.toUpperCase(), current_password: 'anything' });
    expect(same.status).toBe(200);
    expect(same.body.data.pending_email).toBeUndefined();
    expect((await me.patch('/api/v1/me', { name: 'N', current_password: u.password })).status).toBe(400);
    const noPassword = await me.patch('/api/v1/me', { email: next });
    expect(noPassword.status).toBe(400);
    expect(noPassword.body.error.details[0].path).toBe('current_password');
    const wrong = await me.patch('/api/v1/me', { email: next, current_password: 'not it' });
    expect(wrong.status).toBe(400);
    expect((await me.patch('/api/v1/me', { email: w.team.email, current_password: u.password })).status).toBe(409);

    const asked = await me.patch('/api/v1/me', { email: next, current_password: u.password });
    expect(asked.status).toBe(200);
    expect(asked.body.data).toMatchObject({ email: u.email, pending_email: next });
    const [mail] = await mailsTo(w.smtp, next, 1, ['x-account-email', 'email_change']);
    await mailsTo(w.smtp, u.email, 1, ['x-account-email', 'email_change_notice']);
    const token = linkToken(mail, '/account/confirm-email');
    // Opening the link (a scanner) changes nothing; the button does.
    const page = await client(w.app.baseUrl).get(`/account/confirm-email/${token}`);
    expect(page.status).toBe(200);
    expect((await me.get('/api/v1/me')).body.data.email).toBe(u.email);
    const done = await postForm(w.app.baseUrl, `/account/confirm-email/${token}`, {});
    expect(done.status).toBe(200);
    expect((await me.get('/api/v1/me')).body.data.email).toBe(next);
    expect((await login(next, u.password)).status).toBe(200);
    expect((await postForm(w.app.baseUrl, `/account/confirm-email/${token}`, {})).status).toBe(404);
  });
});

describe('sessions', () => {
  it('lists mine with created at, last used, user agent and IP; revokes one, then all others', async () => {
    const u = await user();
    const a = (await login(u.email, u.password, '192.0.2.10', 'Browser A')).body.data.token as string;
    const b = (await login(u.email, u.password, '192.0.2.11', 'Browser B')).body.data.token as string;
    const c = (await login(u.email, u.password, '192.0.2.12', 'Browser C')).body.data.token as string;
    const me = client(w.app.baseUrl, a);
    const list = await me.get('/api/v1/me/sessions');
    expect(list.status).toBe(200);
    expect(list.body.meta.total).toBe(3);
    const mine = list.body.data.find((s: { current: boolean }) => s.current);
    expect(mine).toMatchObject({ user_agent: 'Browser A', ip: '192.0.2.10' });
    expect(mine.last_used_at).toEqual(expect.any(String));
    expect(mine.created_at).toEqual(expect.any(String));
    const sessionB = list.body.data.find((s: { user_agent: string }) => s.user_agent === 'Browser B');
    // "Last used" follows use (written at most once a minute, when the credential is read from the database).
    const longAgo = new Date(Date.now() - 3600e3);
    await w.tdb.db('sessions').where({ id: mine.id }).update({ last_used_at: longAgo });
    clearCredentialCache();
    await me.get('/api/v1/me');
    const used = (await w.tdb.db('sessions').where({ id: mine.id }).first('last_used_at'))!.last_used_at as Date;
    expect(used.getTime()).toBeGreaterThan(longAgo.getTime() + 3000e3);

    // Another user's session id is a 404, and so is another team's.
    const owners = await client(w.app.baseUrl, w.team.session).get('/api/v1/me/sessions');
    expect((await me.delete(`/api/v1/me/sessions/${owners.body.data[0].id}`)).status).toBe(404);
    const other = await createTestTeam(w.tdb.db);
    const theirs = (await client(w.app.baseUrl, other.session).get('/api/v1/me/sessions')).body.data[0].id;
    expect((await me.delete(`/api/v1/me/sessions/${theirs}`)).status).toBe(404);
    expect((await me.delete('/api/v1/me/sessions/nope')).status).toBe(400);

    expect((await me.delete(`/api/v1/me/sessions/${sessionB.id}`)).status).toBe(204);
    expect((await client(w.app.baseUrl, b).get('/api/v1/me')).status).toBe(401);
    expect((await client(w.app.baseUrl, c).get('/api/v1/me')).status).toBe(200);
    const others = await me.post('/api/v1/me/sessions/revoke-others');
    expect(others.status).toBe(200);
    expect(others.body.data).toEqual({ revoked: 1 });
    expect((await client(w.app.baseUrl, c).get('/api/v1/me')).status).toBe(401);
    expect((await me.get('/api/v1/me')).status).toBe(200);
    expect((await client(w.app.baseUrl, other.session).get('/api/v1/me')).status).toBe(200);
    // Dashboard sessions only.
    expect((await client(w.app.baseUrl, w.team.apiKey).get('/api/v1/me/sessions')).body.error.code).toBe('dashboard_only');
    expect((await client(w.app.baseUrl).get('/api/v1/me/sessions')).status).toBe(401);
  });
});

describe('sign-in throttle', () => {
  it('answers every failure alike, then locks the address with a growing delay whether it exists or not', async () => {
    const u = await user();
    const unknown = await login(unique('ghost'), 'whatever password', '198.51.100.1');
    const wrong = await login(u.email, 'wrong password', '198.51.100.2');
    const passwordless = await addMember(
      { db: w.tdb.db, config: testConfig() },
      { teamId: w.team.teamId, values: { email: unique('nopass'), role: 'member' } },
    );
    const noPassword = await login(passwordless.email, 'whatever password', '198.51.100.3');
    for (const res of [unknown, wrong, noPassword]) {
      expect(res.status).toBe(401);
      expect(res.body.error).toMatchObject({ code: 'invalid_token', message: 'Wrong email or password' });
    }

    for (let i = 1; i < LOGIN_FREE_FAILURES.address; i++) expect((await login(u.email, 'wrong', `198.51.100.${10 + i}`)).status).toBe(401);
    // The address is locked now, from any IP, even with the right password.
    const locked = await login(u.email, u.password, '198.51.100.99');
    expect(locked.status).toBe(429);
    expect(locked.body.error.code).toBe('rate_limited');
    const first = Number(locked.headers.get('retry-after'));
    expect(first).toBeGreaterThanOrEqual(1);

    // A made-up address is locked the same way.
    const ghost = unique('ghost');
    for (let i = 0; i < LOGIN_FREE_FAILURES.address; i++) await login(ghost, 'wrong', `203.0.113.${i}`);
    expect((await login(ghost, 'wrong', '203.0.113.200')).status).toBe(429);

    // The delay grows with each failure past the allowance.
    await w.tdb.db('rate_limits').where('key', 'like', 'acct_login_lock:%').delete();
    expect((await login(u.email, 'wrong again', '198.51.100.50')).status).toBe(401);
    const second = Number((await login(u.email, u.password, '198.51.100.51')).headers.get('retry-after'));
    expect(second).toBeGreaterThan(first);

    // After the lock, the right password works and clears the address's count.
    await w.tdb.db('rate_limits').where('key', 'like', 'acct_login_lock:%').delete();
    expect((await login(u.email, u.password, '198.51.100.52')).status).toBe(200);
    expect((await login(u.email, 'wrong', '198.51.100.53')).status).toBe(401);
  });

  it('the OAuth sign-in page shares the throttle and says so on its own page', async () => {
    const u = await user();
    const created = await client(w.app.baseUrl, w.team.session).post(
      '/api/v1/apps',
      completeAppInput({ redirect_uris: ['http://127.0.0.1:9/cb'] }),
    );
    const url = `${w.app.baseUrl}/api/oauth/authorize?${new URLSearchParams({
      client_id: created.body.data.client_id,
      redirect_uri: 'http://127.0.0.1:9/cb',
      response_type: 'code',
      scope: 'user:read',
      state: 'st-1',
      code_challenge: s256Challenge(randomBytes(32).toString('base64url')),
      code_challenge_method: 'S256',
    })}`;
    for (let i = 0; i < LOGIN_FREE_FAILURES.address; i++) {
      expect((await authorizeWithForms(url, { email: u.email, password: 'wrong password' })).status).toBe(401);
    }
    const locked = await authorizeWithForms(url, { email: u.email, password: u.password });
    expect(locked.status).toBe(429);
    expect((await login(u.email, u.password, '198.18.0.1')).status).toBe(429);
  });

  it('locks an IP that fails across many addresses', async () => {
    for (let i = 0; i < LOGIN_FREE_FAILURES.ip; i++) expect((await login(unique('spray'), 'wrong', '192.0.2.200')).status).toBe(401);
    expect((await login(w.team.email, w.team.password, '192.0.2.200')).status).toBe(429);
    expect((await login(w.team.email, w.team.password, '192.0.2.201')).status).toBe(200);
  });

  it('one shared address cannot lock out the office: an account that signed in from it before still can', async () => {
    const colleague = await user();
    const office = '192.0.2.210';
    expect((await login(colleague.email, colleague.password, office)).status).toBe(200);
    for (let i = 0; i < LOGIN_FREE_FAILURES.ip; i++) expect((await login(unique('spray'), 'wrong', office)).status).toBe(401);
    // The office address is locked for accounts it never signed in, the known colleague is not.
    expect((await login(unique('spray'), 'wrong', office)).status).toBe(429);
    expect((await login(w.team.email, w.team.password, office)).status).toBe(429);
    expect((await login(colleague.email, colleague.password, office)).status).toBe(200);
    // Counted per account too: the colleague's own failures still lock the colleague.
    for (let i = 0; i < LOGIN_FREE_FAILURES.address; i++) await login(colleague.email, 'wrong', office);
    expect((await login(colleague.email, colleague.password, office)).status).toBe(429);
  });
});
