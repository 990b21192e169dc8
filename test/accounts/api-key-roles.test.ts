import { randomUUID } from 'node:crypto';
import { useApiWorld } from '../helpers/world';
import { client } from '../helpers/http';
import { addMember } from '../../services/team';
import { createSession } from '../../services/sessions';
import { scopesForRole } from '../../core/scopes';
import { sha256Hex } from '../../core/crypto';
import { testConfig } from '../helpers/config';

/** docs/accounts.md "API keys and roles": a key acts as its creator and never carries more. */
const w = useApiWorld();
const owner = () => client(w.app.baseUrl, w.team.session);

async function person(role: 'admin' | 'member') {
  const u = await addMember(
    { db: w.tdb.db, config: testConfig() },
    { teamId: w.team.teamId, values: { email: `${role}-${randomUUID()}@example.com`, role, password: 'a long password 1' } },
  );
  const { token } = await createSession(w.tdb.db, { userId: u.id });
  return { id: u.id, api: client(w.app.baseUrl, token) };
}

it("a member's key acts as the member, with the member's scopes: it cannot promote itself or touch the owner", async () => {
  const m = await person('member');
  const made = await m.api.post('/api/v1/api-keys', { name: 'mine' });
  expect(made.status).toBe(201);
  expect(made.body.data.created_by).toBe(m.id);
  expect([...made.body.data.scopes].sort()).toEqual([...scopesForRole('member')].sort());
  expect(made.body.data.scopes).not.toContain('team:members');
  const key = client(w.app.baseUrl, made.body.data.api_key);

  expect((await key.get('/api/v1/me')).body.data.id).toBe(m.id);
  const promote = await key.patch(`/api/v1/team/members/${m.id}`, { role: 'owner' });
  expect(promote.status).toBe(403);
  expect((await key.delete(`/api/v1/team/members/${w.team.userId}`)).status).toBe(403);
  expect((await owner().get(`/api/v1/team/members/${m.id}`)).body.data.role).toBe('member');
});

it('asking for a scope beyond the role is 403 insufficient_scope naming it', async () => {
  const m = await person('member');
  const res = await m.api.post('/api/v1/api-keys', { scopes: ['forms:read', 'team:members'] });
  expect(res.status).toBe(403);
  expect(res.body.error.code).toBe('insufficient_scope');
  expect(res.body.error.message).toContain('team:members');
  const admin = await person('admin');
  expect((await admin.api.post('/api/v1/api-keys', { scopes: ['team:members'] })).status).toBe(201);
});

it('a member lists, reads and revokes only its own keys; owners and admins manage every key; only the creator regenerates', async () => {
  const m = await person('member');
  const admin = await person('admin');
  const mine = (await m.api.post('/api/v1/api-keys', { name: 'm' })).body.data;
  const ownerKey = (await owner().post('/api/v1/api-keys', { name: 'o' })).body.data;

  const listed = (await m.api.get('/api/v1/api-keys')).body.data.map((k: { id: string }) => k.id);
  expect(listed).toEqual([mine.id]);
  expect((await m.api.get(`/api/v1/api-keys/${ownerKey.id}`)).status).toBe(404);
  expect((await m.api.delete(`/api/v1/api-keys/${ownerKey.id}`)).status).toBe(404);
  expect((await m.api.post(`/api/v1/api-keys/${ownerKey.id}/regenerate`)).status).toBe(404);
  expect((await client(w.app.baseUrl, ownerKey.api_key).get('/api/v1/me')).status).toBe(200);

  const all = (await admin.api.get('/api/v1/api-keys')).body.data.map((k: { id: string }) => k.id);
  expect(all).toEqual(expect.arrayContaining([mine.id, ownerKey.id]));
  const regen = await admin.api.post(`/api/v1/api-keys/${ownerKey.id}/regenerate`);
  expect(regen.status).toBe(403);
  expect(regen.body.error.code).toBe('forbidden');
  expect((await m.api.post(`/api/v1/api-keys/${mine.id}/regenerate`)).status).toBe(200);
  expect((await admin.api.delete(`/api/v1/api-keys/${mine.id}`)).status).toBe(204);
  expect((await m.api.get(`/api/v1/api-keys/${mine.id}`)).body.data.revoked_at).not.toBeNull();
});

it("demoting the creator caps the creator's keys at once; promoting gives the scopes back; removal stops them", async () => {
  const admin = await person('admin');
  const made = (await admin.api.post('/api/v1/api-keys', { scopes: ['team:members', 'forms:read'] })).body.data;
  const key = client(w.app.baseUrl, made.api_key);
  expect((await key.get('/api/v1/team/members')).status).toBe(200);

  expect((await owner().patch(`/api/v1/team/members/${admin.id}`, { role: 'member' })).status).toBe(200);
  const capped = await key.get('/api/v1/team/members');
  expect(capped.status).toBe(403);
  expect(capped.body.error.code).toBe('insufficient_scope');
  expect((await key.get('/api/v1/forms')).status).toBe(200);

  expect((await owner().patch(`/api/v1/team/members/${admin.id}`, { role: 'admin' })).status).toBe(200);
  expect((await key.get('/api/v1/team/members')).status).toBe(200);

  expect((await owner().delete(`/api/v1/team/members/${admin.id}`)).status).toBe(204);
  expect((await key.get('/api/v1/forms')).status).toBe(401);
});

it('a key whose creator is unknown does not authenticate', async () => {
  const secret = `sk_live_${randomUUID().replace(/-/g, '')}orphan`;
  await w.tdb.db('api_keys').insert({
    team_id: w.team.teamId,
    prefix: secret.slice(0, 12),
    key_hash: sha256Hex(secret),
    scopes: ['forms:read'],
    created_by: null,
  });
  expect((await client(w.app.baseUrl, secret).get('/api/v1/forms')).status).toBe(401);
});
