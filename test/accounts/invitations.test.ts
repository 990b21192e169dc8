import { client } from '../helpers/http';
import { sha256Hex } from '../../core/crypto';
import { createTestTeam } from '../helpers/fixtures';
import { addMember } from '../../services/team';
import { invitationWorkflowId } from '../../workflows/accounts/contract';
import { linkToken, mailsTo, postForm, unique, useAccountsWorld } from './support';
import { testConfig } from '../helpers/config';

/** Invitations: the API, the durable email workflow (3-day reminder), and the no-JS accept page by form posts. */
const w = useAccountsWorld();
const owner = () => client(w.app.baseUrl, w.team.session);
const invite = (email: string, role = 'member') => owner().post('/api/v1/team/invitations', { email, role });
const inviteMails = (email: string, id: string, count = 1) => mailsTo(w.smtp, email, count, ['x-invitation-id', id]);
const signIn = (email: string, password: string) => client(w.app.baseUrl).post('/api/auth/login', { email, password });

describe('invitations API', () => {
  it('invites, emails a link, lists, gets; the invitee joins with a name and a password and can sign in', async () => {
    const email = unique('new');
    const created = await invite(email, 'admin');
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ email, role: 'admin', status: 'pending', send_count: 1, invited_by: w.team.userId });
    const id = created.body.data.id as string;
    const expires = new Date(created.body.data.expires_at).getTime() - Date.now();
    expect(expires).toBeGreaterThan(7 * 24 * 3600e3 - 60e3);
    expect(expires).toBeLessThanOrEqual(7 * 24 * 3600e3);

    const [mail] = await inviteMails(email, id);
    expect(mail.subject).toBe('You are invited to join Test team');
    expect(mail.text).toContain('as admin');
    const token = linkToken(mail, '/account/invitations');
    // Only the hash is stored.
    const stored = await w.tdb.db('account_tokens').where({ invitation_id: id }).select('token_hash');
    expect(stored.map((r: { token_hash: string }) => r.token_hash)).toEqual([sha256Hex(token)]);

    const list = await owner().get('/api/v1/team/invitations?status=pending');
    expect(list.status).toBe(200);
    expect(list.body.data.map((i: { id: string }) => i.id)).toContain(id);
    expect(list.body.meta).toMatchObject({ page: 1, per_page: 20 });
    expect((await owner().get(`/api/v1/team/invitations/${id}`)).body.data.id).toBe(id);

    const page = await client(w.app.baseUrl).get(`/account/invitations/${token}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.text).toContain('Join Test team');

    const short = await postForm(w.app.baseUrl, `/account/invitations/${token}`, {
      name: 'Ann',
      password: 'short',
      password_confirm: 'short',
    });
    expect(short.status).toBe(400);
    expect(short.text).toContain('at least 10 characters');
    const local = email.split('@')[0];
    const emailish = await postForm(w.app.baseUrl, `/account/invitations/${token}`, {
      name: 'Ann',
      password: `${local}-2024!`,
      password_confirm: `${local}-2024!`,
    });
    expect(emailish.status).toBe(400);
    expect(emailish.text).toContain('must not contain your email address');
    const differ = await postForm(w.app.baseUrl, `/account/invitations/${token}`, {
      name: 'Ann',
      password: 'long enough pw 1',
      password_confirm: 'long enough pw 2',
    });
    expect(differ.status).toBe(400);

    const ok = await postForm(w.app.baseUrl, `/account/invitations/${token}`, {
      name: 'Ann <b>',
      password: 'a long pass phrase',
      password_confirm: 'a long pass phrase',
    });
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('Welcome to Test team');
    const user = await w.tdb.db('users').where({ email }).first();
    expect(user).toMatchObject({ team_id: w.team.teamId, name: 'Ann <b>', role: 'admin' });
    expect((await owner().get(`/api/v1/team/invitations/${id}`)).body.data).toMatchObject({
      status: 'accepted',
      accepted_user_id: user!.id,
    });

    const session = await signIn(email, 'a long pass phrase');
    expect(session.status).toBe(200);
    expect(session.body.data.team_id).toBe(w.team.teamId);
    // The link worked once.
    expect((await client(w.app.baseUrl).get(`/account/invitations/${token}`)).status).toBe(404);
    // Inviting a member gets 409.
    expect((await invite(email)).status).toBe(409);
    // The workflow ends without a reminder once accepted.
    const result = await w.env.client.workflow.getHandle(invitationWorkflowId(id, 1)).result();
    expect(result).toEqual({ invitation: 'sent', reminder: 'skipped' });
    expect(await inviteMails(email, id)).toHaveLength(1);
  });

  it('reminds once after 3 days when not accepted; a second invitation of the same address gets 409', async () => {
    const email = unique('slow');
    const created = await invite(email);
    const id = created.body.data.id as string;
    await inviteMails(email, id);
    expect((await invite(email)).status).toBe(409);
    const result = await w.env.client.workflow.getHandle(invitationWorkflowId(id, 1)).result(); // skips 3 days
    expect(result).toEqual({ invitation: 'sent', reminder: 'sent' });
    const mails = await inviteMails(email, id, 2);
    expect(mails).toHaveLength(2);
    expect(mails[1].subject).toBe('Reminder: you are invited to join Test team');
    // Both links work until the invitation is accepted.
    expect((await client(w.app.baseUrl).get(`/account/invitations/${linkToken(mails[0], '/account/invitations')}`)).status).toBe(200);
    expect((await client(w.app.baseUrl).get(`/account/invitations/${linkToken(mails[1], '/account/invitations')}`)).status).toBe(200);
  });

  it('resends with a new link and 7 more days; revokes; expires after 7 days', async () => {
    const email = unique('resend');
    const id = (await invite(email)).body.data.id as string;
    await inviteMails(email, id);
    await w.tdb
      .db('team_invitations')
      .where({ id })
      .update({ expires_at: new Date(Date.now() - 1000) });
    expect((await owner().get(`/api/v1/team/invitations/${id}`)).body.data.status).toBe('expired');
    expect((await owner().get('/api/v1/team/invitations?status=expired')).body.data.map((i: { id: string }) => i.id)).toContain(id);
    const [first] = await inviteMails(email, id);
    expect((await client(w.app.baseUrl).get(`/account/invitations/${linkToken(first, '/account/invitations')}`)).status).toBe(404);

    const resent = await owner().post(`/api/v1/team/invitations/${id}/resend`);
    expect(resent.status).toBe(200);
    expect(resent.body.data).toMatchObject({ status: 'pending', send_count: 2 });
    const mails = await inviteMails(email, id, 2);
    const second = linkToken(mails[1], '/account/invitations');
    expect((await client(w.app.baseUrl).get(`/account/invitations/${second}`)).status).toBe(200);
    // Only the latest send reminds: the first send's workflow was told to stop.
    expect(await w.env.client.workflow.getHandle(invitationWorkflowId(id, 1)).result()).toEqual({
      invitation: 'sent',
      reminder: 'skipped',
    });
    expect(await w.env.client.workflow.getHandle(invitationWorkflowId(id, 2)).result()).toEqual({ invitation: 'sent', reminder: 'sent' });
    const all = await inviteMails(email, id, 3);
    expect(all.map((m) => m.subject)).toEqual([
      'You are invited to join Test team',
      'You are invited to join Test team',
      'Reminder: you are invited to join Test team',
    ]);

    expect((await owner().delete(`/api/v1/team/invitations/${id}`)).status).toBe(204);
    expect((await owner().get(`/api/v1/team/invitations/${id}`)).body.data.status).toBe('revoked');
    expect((await client(w.app.baseUrl).get(`/account/invitations/${second}`)).status).toBe(404);
    expect((await client(w.app.baseUrl).get(`/account/invitations/${linkToken(all[2], '/account/invitations')}`)).status).toBe(404);
    expect((await owner().delete(`/api/v1/team/invitations/${id}`)).body.error.code).toBe('invalid_transition');
    expect((await owner().post(`/api/v1/team/invitations/${id}/resend`)).status).toBe(409);
  });

  it('revoking before the reminder stops it', async () => {
    const email = unique('revoked');
    const id = (await invite(email)).body.data.id as string;
    await inviteMails(email, id);
    expect((await owner().delete(`/api/v1/team/invitations/${id}`)).status).toBe(204);
    expect(await w.env.client.workflow.getHandle(invitationWorkflowId(id, 1)).result()).toEqual({
      invitation: 'sent',
      reminder: 'skipped',
    });
    expect(await inviteMails(email, id)).toHaveLength(1);
  });

  it('brings back a member added without a password, or a removed one; refuses an account of another team', async () => {
    const pending = await addMember(
      { db: w.tdb.db, config: testConfig() },
      { teamId: w.team.teamId, values: { email: unique('nopass'), role: 'member' } },
    );
    const id = (await invite(pending.email, 'admin')).body.data.id as string;
    const [mail] = await inviteMails(pending.email, id);
    const token = linkToken(mail, '/account/invitations');
    const ok = await postForm(w.app.baseUrl, `/account/invitations/${token}`, {
      name: 'Pat',
      password: 'pat long password',
      password_confirm: 'pat long password',
    });
    expect(ok.status).toBe(200);
    expect(await w.tdb.db('users').where({ id: pending.id }).first()).toMatchObject({ name: 'Pat', role: 'admin', removed_at: null });
    expect((await signIn(pending.email, 'pat long password')).status).toBe(200);

    const removed = await owner().delete(`/api/v1/team/members/${pending.id}`);
    expect(removed.status).toBe(204);
    expect((await signIn(pending.email, 'pat long password')).status).toBe(401);
    const again = (await invite(pending.email)).body.data.id as string;
    const back = linkToken((await inviteMails(pending.email, again))[0], '/account/invitations');
    const rejoined = await postForm(w.app.baseUrl, `/account/invitations/${back}`, {
      name: 'Pat',
      password: 'pat other password',
      password_confirm: 'pat other password',
    });
    expect(rejoined.status).toBe(200);
    expect((await owner().get(`/api/v1/team/members/${pending.id}`)).body.data.role).toBe('member');

    const other = await createTestTeam(w.tdb.db);
    const crossId = (await invite(other.email)).body.data.id as string;
    const cross = linkToken((await inviteMails(other.email, crossId))[0], '/account/invitations');
    const page = await client(w.app.baseUrl).get(`/account/invitations/${cross}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('already has an account with another team');
    const refused = await postForm(w.app.baseUrl, `/account/invitations/${cross}`, {
      name: 'X',
      password: 'x long password',
      password_confirm: 'x long password',
    });
    expect(refused.status).toBe(409);
    expect((await w.tdb.db('users').where({ email: other.email }).first())!.team_id).toBe(other.teamId);
  });

  it('admin sessions and API keys with team:members invite; members get 403; owners only grant owner', async () => {
    const adminEmail = unique('admin');
    await addMember(
      { db: w.tdb.db, config: testConfig() },
      { teamId: w.team.teamId, values: { email: adminEmail, role: 'admin', password: 'admin long password' } },
    );
    const memberEmail = unique('member');
    await addMember(
      { db: w.tdb.db, config: testConfig() },
      { teamId: w.team.teamId, values: { email: memberEmail, role: 'member', password: 'member long password' } },
    );
    const admin = client(w.app.baseUrl, (await signIn(adminEmail, 'admin long password')).body.data.token);
    const member = client(w.app.baseUrl, (await signIn(memberEmail, 'member long password')).body.data.token);

    expect((await admin.post('/api/v1/team/invitations', { email: unique('by-admin'), role: 'member' })).status).toBe(201);
    const asOwner = await admin.post('/api/v1/team/invitations', { email: unique('by-admin'), role: 'owner' });
    expect(asOwner.status).toBe(403);
    expect(asOwner.body.error.code).toBe('forbidden');
    const denied = await member.post('/api/v1/team/invitations', { email: unique('by-member') });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('insufficient_scope');

    const key = client(w.app.baseUrl, await w.team.keyWith(['team:members']));
    expect((await key.post('/api/v1/team/invitations', { email: unique('by-key'), role: 'owner' })).status).toBe(201);
    const readOnly = client(w.app.baseUrl, await w.team.keyWith(['team:read']));
    expect((await readOnly.get('/api/v1/team/invitations')).status).toBe(403);
  });

  it('answers 400, 401 and 404 (another team included)', async () => {
    expect((await client(w.app.baseUrl).get('/api/v1/team/invitations')).status).toBe(401);
    const bad = await invite('not-an-email');
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('validation_failed');
    expect((await owner().post('/api/v1/team/invitations', { email: unique('x'), role: 'king' })).status).toBe(400);
    expect((await owner().get('/api/v1/team/invitations?status=lost')).status).toBe(400);
    expect((await owner().get('/api/v1/team/invitations/not-a-uuid')).status).toBe(400);
    expect((await owner().get('/api/v1/team/invitations/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    const other = await createTestTeam(w.tdb.db);
    const theirs = await client(w.app.baseUrl, other.session).post('/api/v1/team/invitations', { email: unique('theirs') });
    const id = theirs.body.data.id as string;
    for (const res of [
      await owner().get(`/api/v1/team/invitations/${id}`),
      await owner().post(`/api/v1/team/invitations/${id}/resend`),
      await owner().delete(`/api/v1/team/invitations/${id}`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
    expect((await owner().get('/api/v1/team/invitations')).body.data.map((i: { id: string }) => i.id)).not.toContain(id);
    // Unknown and malformed links get the same page.
    expect((await client(w.app.baseUrl).get('/account/invitations/nope')).status).toBe(404);
    expect((await postForm(w.app.baseUrl, '/account/invitations/nope', { name: 'a', password: 'b', password_confirm: 'b' })).status).toBe(
      404,
    );
  });
});
