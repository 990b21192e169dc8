import { createTestTeam } from '../helpers/fixtures';
import { useApiWorld } from '../helpers/world';
import { client } from '../helpers/http';
import { FIELD_TYPES } from '../../domain/form-fields';

const w = useApiWorld();

const everyType = FIELD_TYPES.map((type) => ({
  type,
  label: `A ${type} field`,
  ...(['select', 'multi_select', 'radio'].includes(type) ? { options: ['a', { label: 'Bee', value: 'b' }] } : {}),
}));

describe('forms API', () => {
  it('creates a form with name as an alias of title, positions from 0, derived unique names', async () => {
    const res = await w.api.post('/api/v1/forms', {
      name: 'Contact Us!',
      fields: [
        { type: 'email', label: 'Email', required: true },
        { type: 'textarea', label: 'Message', placeholder: 'Say hi' },
        { type: 'text', label: 'Email' },
      ],
    });
    expect(res.status).toBe(201);
    const f = res.body.data;
    expect(f).toMatchObject({ title: 'Contact Us!', slug: 'contact-us', type: 'standard', status: 'draft', description: '' });
    expect(f.fields.map((x: { position: number }) => x.position)).toEqual([0, 1, 2]);
    expect(f.fields.map((x: { name: string }) => x.name)).toEqual(['email', 'message', 'email_2']);
    expect(f.fields[1]).toMatchObject({ type: 'textarea', label: 'Message', placeholder: 'Say hi', required: false });
    expect(f.fields[0].id).toMatch(/^[0-9a-f-]{36}$/);
    expect(f.settings).toEqual({
      redirect_url: null,
      success_message: null,
      submit_label: null,
      notify_emails: [],
      qualification: null,
      embed_allowed_origins: null,
      routing: null,
    });
  });

  it('supports every field type', async () => {
    const res = await w.api.post('/api/v1/forms', { title: 'All types', fields: everyType });
    expect(res.status).toBe(201);
    expect(res.body.data.fields.map((f: { type: string }) => f.type)).toEqual([...FIELD_TYPES]);
    expect(res.body.data.fields.find((f: { type: string }) => f.type === 'select').options).toEqual([
      { label: 'a', value: 'a' },
      { label: 'Bee', value: 'b' },
    ]);
  });

  it('rejects duplicate field names, choice fields without options, unknown types', async () => {
    const dup = await w.api.post('/api/v1/forms', {
      title: 'X',
      fields: [
        { type: 'text', label: 'A', name: 'a' },
        { type: 'email', label: 'B', name: 'a' },
      ],
    });
    expect(dup.status).toBe(400);
    expect(dup.body.error.details[0].path).toBe('body.fields.1.name');
    const noOpts = await w.api.post('/api/v1/forms', { title: 'X', fields: [{ type: 'select', label: 'A' }] });
    expect(noOpts.status).toBe(400);
    expect(noOpts.body.error.details[0].path).toBe('body.fields.0.options');
    const bad = await w.api.post('/api/v1/forms', { title: 'X', fields: [{ type: 'signature', label: 'A' }] });
    expect(bad.status).toBe(400);
    const noTitle = await w.api.post('/api/v1/forms', { fields: [] });
    expect(noTitle.status).toBe(400);
    const badUrl = await w.api.post('/api/v1/forms', { title: 'X', settings: { redirect_url: 'javascript:alert(1)' } });
    expect(badUrl.status).toBe(400);
  });

  it('generates -2, -3 on slug clashes and answers 409 to an explicit taken slug', async () => {
    const a = await w.api.post('/api/v1/forms', { title: 'Signup' });
    const b = await w.api.post('/api/v1/forms', { title: 'Signup' });
    const c = await w.api.post('/api/v1/forms', { title: 'Signup' });
    expect([a.body.data.slug, b.body.data.slug, c.body.data.slug]).toEqual(['signup', 'signup-2', 'signup-3']);
    const taken = await w.api.post('/api/v1/forms', { title: 'Other', slug: 'signup' });
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe('conflict');
    const patch = await w.api.patch(`/api/v1/forms/${c.body.data.id}`, { slug: 'signup-2' });
    expect(patch.status).toBe(409);
  });

  it('keeps published slugs unique across teams', async () => {
    const other = await createTestTeam(w.tdb.db);
    const mine = await w.api.post('/api/v1/forms', { title: 'Global', slug: 'global-slug', status: 'published' });
    expect(mine.status).toBe(201);
    const theirs = await client(w.app.baseUrl, other.apiKey).post('/api/v1/forms', { title: 'Global', slug: 'global-slug' });
    expect(theirs.status).toBe(201); // a draft may share it
    const publish = await client(w.app.baseUrl, other.apiKey).patch(`/api/v1/forms/${theirs.body.data.id}`, { status: 'published' });
    expect(publish.status).toBe(409);
    const generated = await client(w.app.baseUrl, other.apiKey).post('/api/v1/forms', { title: 'Global slug', status: 'published' });
    expect(generated.body.data.slug).toBe('global-slug-2');
  });

  it('lists summaries with exactly the documented keys, filtered by status, newest first', async () => {
    const t = await createTestTeam(w.tdb.db);
    const c = client(w.app.baseUrl, t.apiKey);
    for (const status of ['draft', 'published', 'archived', 'published']) await c.post('/api/v1/forms', { title: `F ${status}`, status });
    const all = await c.get('/api/v1/forms?per_page=3');
    expect(all.status).toBe(200);
    expect(all.body.meta).toEqual({ total: 4, page: 1, per_page: 3, total_pages: 2 });
    expect(Object.keys(all.body.data[0]).sort()).toEqual(['created_at', 'id', 'slug', 'status', 'title', 'type', 'updated_at']);
    const published = await c.get('/api/v1/forms?status=published');
    expect(published.body.data).toHaveLength(2);
    expect(published.body.data.every((f: { status: string }) => f.status === 'published')).toBe(true);
    expect((await c.get('/api/v1/forms?status=bogus')).status).toBe(400);
  });

  it('patches partially: fields replaced (ids kept by name), settings merged, then deletes', async () => {
    const created = await w.api.post('/api/v1/forms', {
      title: 'Patch me',
      fields: [{ type: 'email', label: 'Email', name: 'email' }],
      settings: { success_message: 'Thanks', redirect_url: 'https://example.com/done' },
    });
    const id = created.body.data.id;
    const emailId = created.body.data.fields[0].id;
    const res = await w.api.patch(`/api/v1/forms/${id}`, {
      description: 'New text',
      fields: [
        { type: 'text', label: 'Name', name: 'name' },
        { type: 'email', label: 'E-mail', name: 'email', required: true },
      ],
      settings: { redirect_url: null },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ title: 'Patch me', description: 'New text' });
    expect(res.body.data.fields.map((f: { name: string; position: number }) => [f.name, f.position])).toEqual([
      ['name', 0],
      ['email', 1],
    ]);
    expect(res.body.data.fields[1].id).toBe(emailId);
    expect(res.body.data.settings).toMatchObject({ success_message: 'Thanks', redirect_url: null });
    expect((await w.api.patch(`/api/v1/forms/${id}`, { bogus: 1 })).status).toBe(400);
    expect((await w.api.delete(`/api/v1/forms/${id}`)).status).toBe(204);
    expect((await w.api.get(`/api/v1/forms/${id}`)).status).toBe(404);
  });
});
