import { createTestTeam } from '../helpers/fixtures';
import { useApiWorld } from '../helpers/world';
import { client, http } from '../helpers/http';
import { makeContact, makeTag } from '../fixtures/contacts';

const w = useApiWorld();

describe('contact tags', () => {
  it('creates, lists and deletes tags; names are unique per w.team', async () => {
    const a = await w.api.post('/api/v1/contact-tags', { name: 'VIP' });
    expect(a.status).toBe(201);
    expect(a.body.data).toMatchObject({ id: expect.any(String), name: 'VIP' });
    expect((await w.api.post('/api/v1/contact-tags', { name: 'vip' })).status).toBe(409);
    expect((await w.api.post('/api/v1/contact-tags', { name: '   ' })).status).toBe(400);
    expect((await w.api.post('/api/v1/contact-tags', {})).status).toBe(400);
    const list = await w.api.get('/api/v1/contact-tags');
    expect(list.body.data.map((t: { name: string }) => t.name)).toContain('VIP');
    expect(list.body.meta.total).toBeGreaterThanOrEqual(1);
  });

  it("adds a tag (twice is fine), refuses another w.team's tag, removes it, and deleting a tag removes it from contacts", async () => {
    const contactId = await makeContact(w.tdb.db, w.team.teamId, 'tagged@example.com');
    const tagId = await makeTag(w.tdb.db, w.team.teamId, 'Lead');
    const first = await w.api.post(`/api/v1/contacts/${contactId}/tags`, { tag_id: tagId });
    expect(first.status).toBe(200);
    expect(first.body.data.tags).toEqual([{ id: tagId, name: 'Lead' }]);
    const again = await w.api.post(`/api/v1/contacts/${contactId}/tags`, { tag_id: tagId });
    expect(again.status).toBe(200);
    expect(again.body.data.tags).toEqual([{ id: tagId, name: 'Lead' }]);

    const other = await createTestTeam(w.tdb.db);
    const foreignTag = await makeTag(w.tdb.db, other.teamId, 'Theirs');
    const foreign = await w.api.post(`/api/v1/contacts/${contactId}/tags`, { tag_id: foreignTag });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('not_found');

    const byTag = await w.api.get(`/api/v1/contacts?tag_id=${tagId}`);
    expect(byTag.body.data.map((c: { id: string }) => c.id)).toEqual([contactId]);

    expect((await w.api.delete(`/api/v1/contacts/${contactId}/tags/${tagId}`)).status).toBe(204);
    expect((await w.api.get(`/api/v1/contacts/${contactId}`)).body.data.tags).toEqual([]);

    await w.api.post(`/api/v1/contacts/${contactId}/tags`, { tag_id: tagId });
    expect((await w.api.delete(`/api/v1/contact-tags/${tagId}`)).status).toBe(204);
    expect((await w.api.get(`/api/v1/contacts/${contactId}`)).body.data.tags).toEqual([]);
    expect((await w.api.delete(`/api/v1/contact-tags/${tagId}`)).status).toBe(404);
  });
});

describe('contacts', () => {
  it('reads a contact with the documented fields, enrollments, meetings, submissions and timeline', async () => {
    const id = await makeContact(w.tdb.db, w.team.teamId, 'read@example.com');
    const res = await w.api.get(`/api/v1/contacts/${id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      id,
      email: 'read@example.com',
      phone: null,
      first_name: 'Ada',
      last_name: null,
      timezone: null,
      custom_fields: {},
      tags: [],
      unsubscribed: { email: false, sms: false },
      created_at: expect.any(String),
      updated_at: expect.any(String),
      enrollments: [],
      meetings: [],
      submissions: [],
      timeline: [],
    });
  });

  it('merges custom_fields key by key, removes null keys, and answers 409 on a taken email', async () => {
    const id = await makeContact(w.tdb.db, w.team.teamId, 'merge@example.com');
    await w.api.patch(`/api/v1/contacts/${id}`, { custom_fields: { plan: 'pro', seats: 5, color: 'red' } });
    const res = await w.api.patch(`/api/v1/contacts/${id}`, { custom_fields: { seats: 6, color: null }, last_name: 'Lovelace' });
    expect(res.status).toBe(200);
    expect(res.body.data.custom_fields).toEqual({ plan: 'pro', seats: 6 });
    expect(res.body.data.last_name).toBe('Lovelace');
    expect(res.body.data.first_name).toBe('Ada');
    await makeContact(w.tdb.db, w.team.teamId, 'taken@example.com');
    const clash = await w.api.patch(`/api/v1/contacts/${id}`, { email: 'TAKEN@example.com' });
    expect(clash.status).toBe(409);
    expect((await w.api.patch(`/api/v1/contacts/${id}`, { email: 'not an email' })).status).toBe(400);
    expect((await w.api.patch(`/api/v1/contacts/${id}`, { nickname: 'x' })).status).toBe(400);
  });

  it('lists with pagination and filters: form_id, email, q', async () => {
    const t = await createTestTeam(w.tdb.db);
    const c = client(w.app.baseUrl, t.apiKey);
    const form = await c.post('/api/v1/forms', {
      title: 'F',
      status: 'published',
      fields: [{ type: 'email', label: 'Email', name: 'email' }],
    });
    await http(w.app.baseUrl, 'post', `/api/forms/${form.body.data.id}/submissions`, {
      body: { fields: { email: 'from-form@example.com' } },
    });
    await makeContact(w.tdb.db, t.teamId, 'grace@hopper.example');
    await makeContact(w.tdb.db, t.teamId, 'alan@turing.example');
    const all = await c.get('/api/v1/contacts?limit=2');
    expect(all.body.meta).toEqual({ total: 3, page: 1, per_page: 2, total_pages: 2 });
    expect(all.body.data[0].email).toBe('alan@turing.example');
    const byForm = await c.get(`/api/v1/contacts?form_id=${form.body.data.id}`);
    expect(byForm.body.data.map((x: { email: string }) => x.email)).toEqual(['from-form@example.com']);
    const byEmail = await c.get('/api/v1/contacts?email=GRACE@hopper.example');
    expect(byEmail.body.data.map((x: { email: string }) => x.email)).toEqual(['grace@hopper.example']);
    const q = await c.get('/api/v1/contacts?q=turing');
    expect(q.body.data.map((x: { email: string }) => x.email)).toEqual(['alan@turing.example']);
    const pct = await c.get('/api/v1/contacts?q=%25');
    expect(pct.body.data).toEqual([]);
    expect((await c.get('/api/v1/contacts?form_id=nope')).status).toBe(400);
  });

  it('erases personal data on delete, blanks its submissions, and hides it from the API', async () => {
    const form = await w.api.post('/api/v1/forms', {
      title: 'Erase',
      status: 'published',
      fields: [{ type: 'email', label: 'Email', name: 'email' }],
    });
    const sub = await http(w.app.baseUrl, 'post', `/api/forms/${form.body.data.id}/submissions`, {
      body: { fields: { email: 'erase@example.com' } },
    });
    const row = await w.tdb.db('submissions').where({ id: sub.body.data.id }).first();
    const tagId = await makeTag(w.tdb.db, w.team.teamId, 'Erase me');
    await w.api.post(`/api/v1/contacts/${row!.contact_id}/tags`, { tag_id: tagId });
    expect((await w.api.delete(`/api/v1/contacts/${row!.contact_id}`)).status).toBe(204);
    expect((await w.api.get(`/api/v1/contacts/${row!.contact_id}`)).status).toBe(404);
    const tomb = await w.tdb.db('contacts').where({ id: row!.contact_id! }).first();
    expect(tomb).toMatchObject({ email: null, first_name: null, phone: null, custom_fields: {} });
    expect(tomb!.deleted_at).not.toBeNull();
    expect((await w.tdb.db('submissions').where({ id: sub.body.data.id }).first())!.fields).toEqual({});
    expect(await w.tdb.db('contact_tag_links').where({ contact_id: row!.contact_id! })).toEqual([]);
    // The email is free again: a new submission makes a new contact.
    await http(w.app.baseUrl, 'post', `/api/forms/${form.body.data.id}/submissions`, { body: { fields: { email: 'erase@example.com' } } });
    const list = await w.api.get('/api/v1/contacts?email=erase@example.com');
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0].id).not.toBe(row!.contact_id);
  });
});
