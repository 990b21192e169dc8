import { client, http } from '../helpers/http';
import { publishForm } from '../fixtures/forms';
import { useApiWorld } from '../helpers/world';

let formId: string;

const DESKTOP_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/120 Safari/537.36';
const MOBILE_UA = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/120 Mobile Safari/537.36';

const w = useApiWorld();
beforeAll(async () => {
  const f = await publishForm(w.api, {
    title: 'Survey',
    fields: [{ type: 'select', label: 'Size', name: 'size', options: ['small', 'large'] }],
    settings: { qualification: { rules: [{ field: 'size', operator: 'equals', value: 'large' }] } },
  });
  formId = f.id;
});

const submit = (fields: Record<string, unknown>, status = 'completed', qs = '', ua = DESKTOP_UA) =>
  http(w.app.baseUrl, 'post', `/api/forms/${formId}/submissions${qs}`, { body: { fields, status }, headers: { 'user-agent': ua } });

describe('submissions API and analytics', () => {
  let ids: string[] = [];

  beforeAll(async () => {
    for (let i = 0; i < 3; i++)
      await http(w.app.baseUrl, 'get', `/f/${formId}?utm_source=news`, { headers: { 'user-agent': DESKTOP_UA } }).then((r) =>
        expect(r.status).toBe(200),
      );
    await http(w.app.baseUrl, 'get', `/f/${formId}`, { headers: { 'user-agent': MOBILE_UA } });
    const a = await submit({ email: 'a@example.com', size: 'small' }, 'completed', '?utm_source=news');
    const b = await submit({ email: 'b@example.com' }, 'partial', '?utm_source=news', MOBILE_UA);
    const c = await submit({ email: 'c@example.com', size: 'large' }, 'completed', '', MOBILE_UA);
    ids = [a, b, c].map((r) => r.body.data.id);
  });

  it('lists newest first with metadata, filters by status and since/until', async () => {
    const all = await w.api.get(`/api/v1/forms/${formId}/submissions`);
    expect(all.status).toBe(200);
    expect(all.body.meta).toEqual({ total: 3, page: 1, per_page: 20, total_pages: 1 });
    expect(all.body.data.map((s: { id: string }) => s.id)).toEqual([...ids].reverse());
    expect(all.body.data[0]).toMatchObject({
      id: ids[2],
      status: 'completed',
      qualified: true,
      fields: { email: 'c@example.com', size: 'large' },
    });
    expect(all.body.data[0].metadata.device_type).toBe('mobile');
    const partial = await w.api.get(`/api/v1/forms/${formId}/submissions?status=partial`);
    expect(partial.body.data.map((s: { id: string }) => s.id)).toEqual([ids[1]]);
    const middle = all.body.data[1].submitted_at;
    const since = await w.api.get(`/api/v1/forms/${formId}/submissions?since=${encodeURIComponent(middle)}`);
    expect(since.body.data.map((s: { id: string }) => s.id)).toEqual([ids[2]]);
    const until = await w.api.get(`/api/v1/forms/${formId}/submissions?until=${encodeURIComponent(middle)}`);
    expect(until.body.data.map((s: { id: string }) => s.id)).toEqual([ids[0]]);
    const paged = await w.api.get(`/api/v1/forms/${formId}/submissions?per_page=2&page=2`);
    expect(paged.body.data.map((s: { id: string }) => s.id)).toEqual([ids[0]]);
    expect((await w.api.get(`/api/v1/forms/${formId}/submissions?since=yesterday`)).status).toBe(400);
  });

  it('counts views, starts, partial and completed, by utm_source and device_type', async () => {
    const res = await client(w.app.baseUrl, await w.team.keyWith(['analytics:read'])).get(`/api/v1/forms/${formId}/analytics`);
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(d).toMatchObject({ views: 4, starts: 3, partial: 1, completed: 2, completion_rate: 0.6667, conversion_rate: 0.5 });
    expect(d.by_utm_source).toEqual(
      expect.arrayContaining([
        { utm_source: 'news', views: 3, starts: 2, partial: 1, completed: 1 },
        { utm_source: null, views: 1, starts: 1, partial: 0, completed: 1 },
      ]),
    );
    expect(d.by_device_type).toEqual(
      expect.arrayContaining([
        { device_type: 'desktop', views: 3, starts: 1, partial: 0, completed: 1 },
        { device_type: 'mobile', views: 1, starts: 2, partial: 1, completed: 1 },
      ]),
    );
    const future = await w.api.get(
      `/api/v1/forms/${formId}/analytics?since=${encodeURIComponent(new Date(Date.now() + 3600_000).toISOString())}`,
    );
    expect(future.body.data).toMatchObject({ views: 0, starts: 0, completed: 0, completion_rate: 0 });
  });

  it('patches fields (merge, null removes), re-qualifies, and records submission.updated', async () => {
    const before = Number((await w.tdb.db('events').count({ n: '*' }).first())?.n);
    const res = await w.api.patch(`/api/v1/submissions/${ids[0]}`, { fields: { size: 'large' } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ fields: { email: 'a@example.com', size: 'large' }, qualified: true });
    const removed = await w.api.patch(`/api/v1/submissions/${ids[0]}`, { fields: { size: null } });
    expect(removed.body.data.fields).toEqual({ email: 'a@example.com' });
    expect(removed.body.data.qualified).toBe(false);
    const types = (await w.tdb.db('events').orderBy('created_at').offset(before)).map((e) => e.type);
    expect(types).toEqual(['submission.updated', 'submission.qualified', 'submission.updated']);
    const bad = await w.api.patch(`/api/v1/submissions/${ids[0]}`, { fields: { email: null } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0]).toEqual({ path: 'body.fields.email', message: 'is required' });
    expect((await w.api.patch(`/api/v1/submissions/${ids[0]}`, { fields: { size: 'huge' } })).status).toBe(400);
  });

  it('deletes with 204 and records submission.deleted with the old data', async () => {
    const res = await w.api.delete(`/api/v1/submissions/${ids[2]}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await w.api.get(`/api/v1/submissions/${ids[2]}`)).status).toBe(404);
    const ev = await w.tdb.db('events').where({ type: 'submission.deleted' }).first();
    expect(ev!.payload).toMatchObject({
      event: 'submission.deleted',
      data: { submission_id: ids[2], form_id: formId, form_title: 'Survey', submission_data: { email: 'c@example.com', size: 'large' } },
    });
    expect((await w.api.delete(`/api/v1/submissions/${ids[2]}`)).status).toBe(404);
  });
});
