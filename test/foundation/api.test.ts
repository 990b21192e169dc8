import { useApiWorld } from '../helpers/world';
import { client, http } from '../helpers/http';

const w = useApiWorld();

describe('common behaviour', () => {
  it('sets X-Request-Id on every response, and echoes it in error bodies', async () => {
    const ok = await client(w.app.baseUrl, w.team.apiKey).get('/api/v1/me');
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-request-id')).toMatch(/[0-9a-f-]{36}/);
    const err = await http(w.app.baseUrl, 'get', '/api/v1/me', { headers: { 'x-request-id': 'req-123' } });
    expect(err.status).toBe(401);
    expect(err.headers.get('x-request-id')).toBe('req-123');
    expect(err.body).toEqual({ error: { code: 'invalid_token', message: expect.any(String), request_id: 'req-123' } });
  });

  it('accepts the key by Authorization: Bearer and by X-API-Key, and rejects unknown keys', async () => {
    expect((await http(w.app.baseUrl, 'get', '/api/v1/me', { headers: { 'x-api-key': w.team.apiKey } })).status).toBe(200);
    const bad = await client(w.app.baseUrl, 'sk_live_nope').get('/api/v1/me');
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    const malformed = await http(w.app.baseUrl, 'get', '/api/v1/me', { headers: { authorization: 'Basic abc' } });
    expect(malformed.status).toBe(401);
  });

  it('answers JSON 404 for unknown routes and 405 for a wrong method', async () => {
    const nf = await client(w.app.baseUrl, w.team.apiKey).get('/api/v1/nothing-here');
    expect(nf.status).toBe(404);
    expect(nf.body.error.code).toBe('not_found');
    const mna = await client(w.app.baseUrl, w.team.apiKey).put('/api/v1/me', {});
    expect(mna.status).toBe(405);
    expect(mna.body.error.code).toBe('method_not_allowed');
  });

  it('reports health of Postgres and Temporal (503 naming the part that is down)', async () => {
    const res = await http(w.app.baseUrl, 'get', '/healthz');
    expect(res.status).toBe(503); // this app has no Temporal
    expect(res.body).toEqual({ status: 'degraded', postgres: 'up', temporal: 'down' });
  });

  it('serves an OpenAPI 3.1 document listing every route, and a docs page', async () => {
    const doc = await http(w.app.baseUrl, 'get', '/api/v1/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe('3.1.0');
    const { allRoutes } = await import('../../api/routes');
    for (const r of allRoutes()) {
      const p = r.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
      expect(doc.body.paths[p]?.[r.method]).toBeDefined();
    }
    const docs = await http(w.app.baseUrl, 'get', '/docs');
    expect(docs.status).toBe(200);
    expect(docs.text).toContain('/api/v1/me');
  });
});

describe('sessions and dashboard-only endpoints', () => {
  it('logs in with email and password and the session reaches dashboard-only endpoints', async () => {
    const login = await http(w.app.baseUrl, 'post', '/api/auth/login', { body: { email: w.team.email, password: w.team.password } });
    expect(login.status).toBe(200);
    expect(login.body.data.token).toMatch(/^svc_us_/);
    expect(login.body.data.team_id).toBe(w.team.teamId);
    expect(new Date(login.body.data.expires_at).getTime()).toBeGreaterThan(Date.now() + 11 * 3600e3);
    const keys = await client(w.app.baseUrl, login.body.data.token).get('/api/v1/api-keys');
    expect(keys.status).toBe(200);
    const viaKey = await client(w.app.baseUrl, w.team.apiKey).get('/api/v1/api-keys');
    expect(viaKey.status).toBe(403);
    expect(viaKey.body.error.code).toBe('dashboard_only');
  });

  it('logs out: the session ends (its token gets 401) and the others stay', async () => {
    const signIn = () => http(w.app.baseUrl, 'post', '/api/auth/login', { body: { email: w.team.email, password: w.team.password } });
    const [ending, staying] = [(await signIn()).body.data.token as string, (await signIn()).body.data.token as string];
    const out = await client(w.app.baseUrl, ending).post('/api/auth/logout');
    expect(out.status).toBe(204);
    expect(out.text).toBe('');
    const after = await client(w.app.baseUrl, ending).get('/api/v1/api-keys');
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe('invalid_token');
    expect((await client(w.app.baseUrl, staying).get('/api/v1/api-keys')).status).toBe(200);
  });

  it('refuses a wrong password with 401 and never echoes it', async () => {
    const res = await http(w.app.baseUrl, 'post', '/api/auth/login', { body: { email: w.team.email, password: 'wrong-password!' } });
    expect(res.status).toBe(401);
    expect(res.text).not.toContain('wrong-password!');
  });

  it('creates, lists, regenerates and revokes API keys; the secret is shown once', async () => {
    const s = client(w.app.baseUrl, w.team.session);
    const created = await s.post('/api/v1/api-keys', { name: 'ci', scopes: ['forms:read'], mode: 'test' });
    expect(created.status).toBe(201);
    const secret = created.body.data.api_key as string;
    expect(secret).toMatch(/^sk_test_[A-Za-z0-9_-]{43}$/);
    const listed = await s.get('/api/v1/api-keys');
    const item = listed.body.data.find((k: any) => k.id === created.body.data.id);
    expect(item.scopes).toEqual(['forms:read']);
    expect(JSON.stringify(listed.body)).not.toContain(secret);
    expect((await client(w.app.baseUrl, secret).get('/api/v1/me')).status).toBe(403); // lacks user:read
    const regen = await s.post(`/api/v1/api-keys/${item.id}/regenerate`);
    expect(regen.status).toBe(200);
    expect(regen.body.data.api_key).not.toBe(secret);
    expect((await client(w.app.baseUrl, secret).get('/api/v1/team')).status).toBe(401);
    expect((await s.delete(`/api/v1/api-keys/${item.id}`)).status).toBe(204);
    expect((await client(w.app.baseUrl, regen.body.data.api_key).get('/api/v1/team')).status).toBe(401);
    const stored = await w.tdb.db('api_keys').where({ id: item.id }).first();
    expect(stored!.key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(regen.body.data.api_key);
  });

  it('replays a create with the same Idempotency-Key and refuses the key for a different body', async () => {
    const s = client(w.app.baseUrl, w.team.session);
    const a = await s.post('/api/v1/api-keys', { name: 'idem' }, { 'idempotency-key': 'k-1' });
    const b = await s.post('/api/v1/api-keys', { name: 'idem' }, { 'idempotency-key': 'k-1' });
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.body).toEqual(a.body);
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    const c = await s.post('/api/v1/api-keys', { name: 'other' }, { 'idempotency-key': 'k-1' });
    expect(c.status).toBe(409);
  });
});

describe('team and user', () => {
  it('reads and updates the team, adds and removes members with a default schedule', async () => {
    const c = client(w.app.baseUrl, w.team.apiKey);
    expect((await c.get('/api/v1/team')).body.data.id).toBe(w.team.teamId);
    const patched = await c.patch('/api/v1/team', { name: 'Renamed' });
    expect(patched.body.data.name).toBe('Renamed');
    const added = await c.post('/api/v1/team/members', { email: 'new.member@example.com', role: 'member', timezone: 'Europe/Berlin' });
    expect(added.status).toBe(201);
    const schedule = await w.tdb.db('availability_schedules').where({ user_id: added.body.data.id }).first();
    expect(schedule!.timezone).toBe('Europe/Berlin');
    expect(schedule!.rules).toHaveLength(5);
    expect(schedule!.rules[0]).toEqual({ day: 1, start: '09:00', end: '17:00', enabled: true });
    const dup = await c.post('/api/v1/team/members', { email: 'NEW.member@example.com' });
    expect(dup.status).toBe(409);
    const list = await c.get('/api/v1/team/members?per_page=1');
    expect(list.body.meta).toEqual({ total: 2, page: 1, per_page: 1, total_pages: 2 });
    expect((await c.delete(`/api/v1/team/members/${added.body.data.id}`)).status).toBe(204);
    expect((await c.delete(`/api/v1/team/members/${w.team.userId}`)).status).toBe(409);
  });

  it('refuses NUL characters anywhere in the input with 400 (PostgreSQL cannot store them)', async () => {
    const c = client(w.app.baseUrl, w.team.apiKey);
    const name = await c.patch('/api/v1/me', { name: 'a\u0000b' });
    expect(name.status).toBe(400);
    expect(name.body.error.details[0]).toEqual({ path: 'body.name', message: 'must not contain NUL characters' });
    const key = await c.patch('/api/v1/team', { settings: { 'k\u0000': 1 } });
    expect(key.status).toBe(400);
    expect(key.body.error.code).toBe('validation_failed');
    const query = await c.get('/api/v1/team/members?page=1%00');
    expect(query.status).toBe(400);
    expect((await c.get('/api/v1/me')).body.data.name).toBeNull(); // nothing was written
  });

  it('GET/PATCH /api/v1/me acts as the owner for an API key', async () => {
    const c = client(w.app.baseUrl, w.team.apiKey);
    const me = await c.get('/api/v1/me');
    expect(me.body.data.id).toBe(w.team.userId);
    expect(me.body.data.credential).toBe('api_key');
    const tz = await c.patch('/api/v1/me', { timezone: 'Mars/Olympus' });
    expect(tz.status).toBe(400);
    expect(tz.body.error.details[0].path).toBe('body.timezone');
  });
});
