import { client, http } from '../helpers/http';
import { createSession } from '../../services/sessions';
import { addMember } from '../../services/team';
import { RESET_PER_HOUR } from '../../services/accounts/throttle';
import { linkToken, mailsTo, postForm, unique, useAccountsWorld } from './support';
import { testConfig } from '../helpers/config';

/** Password reset: 202 for any address, the emailed single-use 1-hour link, the no-JS page, sessions signed out. */
// TRUST_PROXY_HOPS=1: the tests name the client's IP with X-Forwarded-For.
const w = useAccountsWorld({ env: { TRUST_PROXY_HOPS: '1' } });
const ask = (email: string, ip = '127.0.0.1') =>
  client(w.app.baseUrl).post('/api/auth/password-reset', { email }, { 'x-forwarded-for': ip });
const signIn = (email: string, password: string) => client(w.app.baseUrl).post('/api/auth/login', { email, password });
const resetMails = (email: string, count = 1) => mailsTo(w.smtp, email, count, ['x-account-email', 'password_reset']);

it('answers 202 alike for a known and an unknown address; only the known one gets an email', async () => {
  const user = await addMember(
    { db: w.tdb.db, config: testConfig() },
    { teamId: w.team.teamId, values: { email: unique('known'), role: 'member', password: 'old long password' } },
  );
  const unknown = unique('unknown');
  const a = await ask(user.email);
  const b = await ask(unknown);
  expect(a.status).toBe(202);
  expect(b.status).toBe(202);
  expect(a.body).toEqual(b.body);
  const [mail] = await resetMails(user.email);
  expect(mail.subject).toBe('Reset your password');
  linkToken(mail, '/account/reset-password');
  expect(w.smtp.messages.some((m) => (m.to?.text ?? '').includes(unknown))).toBe(false);
});

it('the link sets a new password once, checks it, and signs out every session of the user', async () => {
  const email = unique('reset');
  const user = await addMember(
    { db: w.tdb.db, config: testConfig() },
    { teamId: w.team.teamId, values: { email, role: 'member', password: 'old long password' } },
  );
  const s1 = (await signIn(email, 'old long password')).body.data.token as string;
  const s2 = (await createSession(w.tdb.db, { userId: user.id })).token;
  expect((await client(w.app.baseUrl, s1).get('/api/v1/me')).status).toBe(200);

  expect((await ask(email)).status).toBe(202);
  const token = linkToken((await resetMails(email))[0], '/account/reset-password');
  const page = await client(w.app.baseUrl).get(`/account/reset-password/${token}`);
  expect(page.status).toBe(200);
  expect(page.text).toContain(email);
  expect(page.headers.get('cache-control')).toBe('no-store');

  const form = (password: string, confirm = password) =>
    postForm(w.app.baseUrl, `/account/reset-password/${token}`, { password, password_confirm: confirm });
  expect((await form('short')).status).toBe(400);
  const withEmail = await form(`my ${email} pw`);
  expect(withEmail.status).toBe(400);
  expect(withEmail.text).toContain('must not contain your email address');
  expect((await form('new long password', 'other long password')).status).toBe(400);
  // Still the old password after the refusals.
  expect((await signIn(email, 'old long password')).status).toBe(200);

  const done = await form('new long password');
  expect(done.status).toBe(200);
  expect(done.text).toContain('Your password is changed');
  expect((await signIn(email, 'old long password')).status).toBe(401);
  expect((await signIn(email, 'new long password')).status).toBe(200);
  for (const s of [s1, s2]) expect((await client(w.app.baseUrl, s).get('/api/v1/me')).status).toBe(401);
  // Single use.
  expect((await client(w.app.baseUrl).get(`/account/reset-password/${token}`)).status).toBe(404);
  expect((await form('third long password')).status).toBe(404);
});

it('a link is valid for one hour', async () => {
  const email = unique('late');
  await addMember(
    { db: w.tdb.db, config: testConfig() },
    { teamId: w.team.teamId, values: { email, role: 'member', password: 'old long password' } },
  );
  await ask(email);
  const token = linkToken((await resetMails(email))[0], '/account/reset-password');
  const row = await w.tdb.db('account_tokens').where({ kind: 'password_reset' }).orderBy('created_at', 'desc').first();
  const ttl = new Date(row!.expires_at).getTime() - new Date(row!.created_at).getTime();
  expect(ttl).toBeGreaterThan(3590e3);
  expect(ttl).toBeLessThanOrEqual(3600e3);
  await w.tdb
    .db('account_tokens')
    .where({ id: row!.id })
    .update({ expires_at: new Date(Date.now() - 1000) });
  expect((await client(w.app.baseUrl).get(`/account/reset-password/${token}`)).status).toBe(404);
});

it('is limited per address and per IP, whether the address exists or not', async () => {
  const nobody = unique('nobody');
  for (let i = 0; i < RESET_PER_HOUR.address; i++) expect((await ask(nobody, '10.0.0.1')).status).toBe(202);
  const limited = await ask(nobody, '10.0.0.2');
  expect(limited.status).toBe(429);
  expect(limited.body.error.code).toBe('rate_limited');
  expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);

  for (let i = 0; i < RESET_PER_HOUR.ip; i++) expect((await ask(unique('spray'), '10.0.0.3')).status).toBe(202);
  expect((await ask(unique('spray'), '10.0.0.3')).status).toBe(429);
  expect((await ask(unique('spray'), '10.0.0.4')).status).toBe(202);
});

it('answers 400 to bad input', async () => {
  expect((await client(w.app.baseUrl).post('/api/auth/password-reset', { email: 'nope' })).status).toBe(400);
  expect((await client(w.app.baseUrl).post('/api/auth/password-reset', {})).status).toBe(400);
  expect(
    (await http(w.app.baseUrl, 'post', '/api/auth/password-reset', { raw: '{', headers: { 'content-type': 'application/json' } })).status,
  ).toBe(400);
});
