import { useApiWorld } from '../helpers/world';
import { client } from '../helpers/http';
import { createTestTeam } from '../helpers/fixtures';
import { instantDaysAhead } from '../helpers/open-day';
import { addMember } from '../../services/team';
import { createApiKey } from '../../services/api-keys';
import { createSession } from '../../services/sessions';
import { resolveContext } from '../../services/scheduling/context';
import { testConfig } from '../helpers/config';

/** Members and roles: list, get, change a role, remove (with what the member still hosts). */
const w = useApiWorld();
const owner = () => client(w.app.baseUrl, w.team.session);
let n = 0;
const email = (p: string) => `${p}-${++n}-${Date.now()}@example.com`;

async function memberWithSession(role: 'owner' | 'admin' | 'member') {
  const user = await addMember(
    { db: w.tdb.db, config: testConfig() },
    {
      teamId: w.team.teamId,
      values: {
        email: email(role),
        role: role === 'owner' ? 'admin' : role,
        password: 'a long password',
      },
    },
  );
  if (role === 'owner') await w.tdb.db('users').where({ id: user.id }).update({ role: 'owner' });
  const { token } = await createSession(w.tdb.db, { userId: user.id });
  return { id: user.id, email: user.email, session: token, api: client(w.app.baseUrl, token) };
}

it('lists and reads members; changes roles; a role change applies to live sessions at once', async () => {
  const m = await memberWithSession('member');
  const list = await owner().get('/api/v1/team/members?per_page=100');
  expect(list.status).toBe(200);
  expect(list.body.data.map((u: { id: string }) => u.id)).toEqual(expect.arrayContaining([w.team.userId, m.id]));
  expect((await owner().get(`/api/v1/team/members/${m.id}`)).body.data).toMatchObject({ id: m.id, role: 'member', avatar_url: null });

  expect((await m.api.get('/api/v1/team/invitations')).status).toBe(403);
  const promoted = await owner().patch(`/api/v1/team/members/${m.id}`, { role: 'admin' });
  expect(promoted.status).toBe(200);
  expect(promoted.body.data.role).toBe('admin');
  expect((await m.api.get('/api/v1/team/invitations')).status).toBe(200);
  expect((await owner().patch(`/api/v1/team/members/${m.id}`, { role: 'member' })).body.data.role).toBe('member');
  expect((await m.api.get('/api/v1/team/invitations')).status).toBe(403);
});

it('the last owner cannot be demoted or removed (409); with a second owner it can; admins cannot touch owners (403)', async () => {
  const demote = await owner().patch(`/api/v1/team/members/${w.team.userId}`, { role: 'admin' });
  expect(demote.status).toBe(409);
  expect(demote.body.error.code).toBe('conflict');

  const admin = await memberWithSession('admin');
  expect((await admin.api.delete(`/api/v1/team/members/${w.team.userId}`)).status).toBe(403);
  const grant = await admin.api.patch(`/api/v1/team/members/${admin.id}`, { role: 'owner' });
  expect(grant.status).toBe(403);
  expect(grant.body.error.code).toBe('forbidden');

  const second = await memberWithSession('owner');
  expect((await second.api.patch(`/api/v1/team/members/${w.team.userId}`, { role: 'admin' })).status).toBe(200);
  // Now `second` is the only owner.
  expect((await second.api.patch(`/api/v1/team/members/${second.id}`, { role: 'admin' })).status).toBe(409);
  expect((await second.api.patch(`/api/v1/team/members/${w.team.userId}`, { role: 'owner' })).status).toBe(200);
  const removeOwner = await client(w.app.baseUrl, w.team.session).delete(`/api/v1/team/members/${second.id}`);
  expect(removeOwner.status).toBe(204);
  // Self-removal is refused.
  expect((await owner().delete(`/api/v1/team/members/${w.team.userId}`)).status).toBe(409);
});

it('removal signs the member out, revokes the API keys they created, and reports what they host', async () => {
  const m = await memberWithSession('admin');
  const other = await createSession(w.tdb.db, { userId: m.id });
  const theirKey = await createApiKey({ db: w.tdb.db }, { teamId: w.team.teamId, scopes: ['forms:read'], createdBy: m.id });
  const ownerKey = await createApiKey({ db: w.tdb.db }, { teamId: w.team.teamId, scopes: ['forms:read'], createdBy: w.team.userId });
  expect((await client(w.app.baseUrl, theirKey.secret).get('/api/v1/forms')).status).toBe(200);

  const [page] = await w.tdb
    .db('scheduling_pages')
    .insert({ team_id: w.team.teamId, title: 'Sales calls', slug: `sales-${Date.now()}`, page_type: 'round_robin', status: 'published' })
    .returning('id');
  await w.tdb.db('scheduling_page_hosts').insert([
    { page_id: page.id, user_id: m.id, team_id: w.team.teamId, position: 0 },
    { page_id: page.id, user_id: w.team.userId, team_id: w.team.teamId, position: 1 },
  ]);
  const start = new Date(instantDaysAhead(2)); // any day: written straight to the table
  const end = new Date(start.getTime() + 30 * 60e3);
  const meeting = {
    team_id: w.team.teamId,
    host_user_id: m.id,
    attendee_name: 'Zoe',
    attendee_email: 'zoe@example.com',
    block_start: start,
    block_end: end,
    start_time: start,
    end_time: end,
  };
  const [upcoming] = await w.tdb
    .db('meetings')
    .insert({ ...meeting, title: 'Demo', status: 'scheduled', scheduling_page_id: page.id })
    .returning('id');
  const pastStart = new Date(Date.now() - 48 * 3600e3);
  const pastEnd = new Date(pastStart.getTime() + 30 * 60e3);
  await w.tdb.db('meetings').insert({
    ...meeting,
    title: 'Old',
    status: 'completed',
    start_time: pastStart,
    end_time: pastEnd,
    block_start: pastStart,
    block_end: pastEnd,
  });

  expect((await resolveContext(w.tdb.db, { pageId: page.id })).hostIds).toEqual([m.id, w.team.userId]);
  const res = await owner().delete(`/api/v1/team/members/${m.id}`, { prefer: 'return=representation' });
  expect(res.status).toBe(200);
  expect(res.headers.get('preference-applied')).toBe('return=representation');
  expect(res.body.data).toMatchObject({
    user_id: m.id,
    removed_at: expect.any(String),
    revoked: { sessions: 2, api_keys: [theirKey.key.id], oauth_tokens: 0 },
    upcoming_meetings: [{ id: upcoming.id, title: 'Demo', status: 'scheduled', scheduling_page_id: page.id }],
    scheduling_pages: [{ id: page.id, title: 'Sales calls', other_hosts: 1 }],
  });
  for (const token of [m.session, other.token, theirKey.secret]) {
    expect((await client(w.app.baseUrl, token).get('/api/v1/me')).status).toBe(401);
  }
  expect((await client(w.app.baseUrl, ownerKey.secret).get('/api/v1/forms')).status).toBe(200);
  expect((await client(w.app.baseUrl).post('/api/auth/login', { email: m.email, password: 'a long password' })).status).toBe(401);
  // Still listed as a host of the page until reassigned, but offered no more bookings.
  expect((await resolveContext(w.tdb.db, { pageId: page.id })).hostIds).toEqual([w.team.userId]);
  // The dashboard reassigns: the removed member cannot be made a host again.
  const rehost = await owner().patch(`/api/v1/scheduling-pages/${page.id}`, { host_user_ids: [m.id, w.team.userId] });
  expect(rehost.status).toBe(404);
  const reassigned = await owner().patch(`/api/v1/scheduling-pages/${page.id}`, { host_user_ids: [w.team.userId] });
  expect(reassigned.status).toBe(200);
  expect(reassigned.body.data.host_user_ids).toEqual([w.team.userId]);
  // The meeting and the user row stay for the dashboard to reassign; the member is no longer listed.
  expect(await w.tdb.db('meetings').where({ id: upcoming.id }).first()).toBeDefined();
  const list = await owner().get('/api/v1/team/members?per_page=100');
  expect(list.body.data.map((u: { id: string }) => u.id)).not.toContain(m.id);
  expect((await owner().get(`/api/v1/team/members/${m.id}`)).status).toBe(404);
  expect((await owner().delete(`/api/v1/team/members/${m.id}`)).status).toBe(404);
});

it('answers 400, 401, 403 and 404 (another team included)', async () => {
  const m = await memberWithSession('member');
  expect((await client(w.app.baseUrl).patch(`/api/v1/team/members/${m.id}`, { role: 'admin' })).status).toBe(401);
  expect((await m.api.patch(`/api/v1/team/members/${m.id}`, { role: 'admin' })).status).toBe(403);
  expect((await owner().patch(`/api/v1/team/members/${m.id}`, { role: 'boss' })).status).toBe(400);
  expect((await owner().patch(`/api/v1/team/members/${m.id}`, { role: 'admin', extra: 1 })).status).toBe(400);
  expect((await owner().patch('/api/v1/team/members/nope', { role: 'admin' })).status).toBe(400);
  const other = await createTestTeam(w.tdb.db);
  for (const res of [
    await owner().get(`/api/v1/team/members/${other.userId}`),
    await owner().patch(`/api/v1/team/members/${other.userId}`, { role: 'admin' }),
    await owner().delete(`/api/v1/team/members/${other.userId}`),
  ]) {
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  }
  expect((await w.tdb.db('users').where({ id: other.userId }).first())!.role).toBe('owner');
});
