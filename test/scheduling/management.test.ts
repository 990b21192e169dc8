import { createTestTeam } from '../helpers/fixtures';
import { useApiWorld } from '../helpers/world';
import { client } from '../helpers/http';
import { insertMeeting } from '../fixtures/scheduling';
import { jsonb } from '../../db/jsonb';

const w = useApiWorld();

describe('scheduling pages and event types', () => {
  it('creates a page with defaults, generates slugs and refuses a taken explicit slug', async () => {
    const a = await w.api.post('/api/v1/scheduling-pages', { title: 'Demo Calls!' });
    expect(a.status).toBe(201);
    expect(a.body.data).toMatchObject({
      title: 'Demo Calls!',
      slug: 'demo-calls',
      type: 'schedule',
      page_type: 'one_on_one',
      status: 'draft',
      published_at: null,
      host_user_ids: [w.team.userId],
      event_types: [],
    });
    const b = await w.api.post('/api/v1/scheduling-pages', { title: 'Demo calls' });
    expect(b.body.data.slug).toBe('demo-calls-2');
    const c = await w.api.post('/api/v1/scheduling-pages', { title: 'x', slug: 'demo-calls' });
    expect(c.status).toBe(409);
    expect(c.body.error.code).toBe('conflict');
    const p = await w.api.patch(`/api/v1/scheduling-pages/${a.body.data.id}`, { status: 'published', settings: { show_avatar: true } });
    expect(p.status).toBe(200);
    expect(p.body.data.published_at).toEqual(expect.any(String));
    expect(p.body.data.settings).toEqual({ show_avatar: true });
    const list = await w.api.get('/api/v1/scheduling-pages?status=published');
    expect(list.body.data.map((x: { id: string }) => x.id)).toEqual([a.body.data.id]);
    expect(list.body.meta).toEqual({ total: 1, page: 1, per_page: 20, total_pages: 1 });
  });

  it('refuses hosts of another team with 404', async () => {
    const other = await createTestTeam(w.tdb.db);
    const res = await w.api.post('/api/v1/scheduling-pages', { title: 'Team', host_user_ids: [other.userId] });
    expect(res.status).toBe(404);
  });

  it('applies the spec defaults to event types and validates increments and providers', async () => {
    const page = await w.api.post('/api/v1/scheduling-pages', { title: 'Types' });
    const path = `/api/v1/scheduling-pages/${page.body.data.id}/event-types`;
    const e = await w.api.post(path, { title: 'Quick Chat' });
    expect(e.status).toBe(201);
    expect(e.body.data).toMatchObject({
      slug: 'quick-chat',
      duration_minutes: 30,
      buffer_time_before: 0,
      buffer_time_after: 0,
      min_notice_minutes: 60,
      max_booking_days: 14,
      is_active: true,
      position: 0,
    });
    const listed = await w.api.get(path);
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((t: { id: string; title: string }) => [t.id, t.title])).toEqual([[e.body.data.id, 'Quick Chat']]);
    const bad = await w.api.post(path, { title: 'x', start_time_increment: 7 });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].path).toBe('body.start_time_increment');
    const v3 = await w.api.post(path, { title: 'x', location_type: 'video_provider_3' });
    expect(v3.status).toBe(400);
    expect(v3.body.error.details[0].message).toMatch(/not yet supported/);
    const patched = await w.api.patch(`${path}/${e.body.data.id}`, { start_time_increment: 60, requires_confirmation: true });
    expect(patched.body.data).toMatchObject({ start_time_increment: 60, requires_confirmation: true, duration_minutes: 30 });
    const one = await w.api.get(`/api/v1/scheduling-pages/${page.body.data.id}`);
    expect(one.body.data.event_types).toHaveLength(1);
    expect(one.body.data.remove_branding).toBe(false);
    expect((await w.api.get(`${path}/${e.body.data.id}`)).body.data).toMatchObject({ id: e.body.data.id, start_time_increment: 60 });
    expect((await w.api.delete(`${path}/${e.body.data.id}`)).status).toBe(204);
    expect((await w.api.get(path)).body.data).toEqual([]);
    expect((await w.api.get(`${path}/${e.body.data.id}`)).status).toBe(404);
    expect((await w.api.delete(`/api/v1/scheduling-pages/${page.body.data.id}`)).status).toBe(204);
  });
});

describe('availability schedules', () => {
  it('are read-only through the API and editable from the dashboard', async () => {
    const list = await w.api.get(`/api/v1/availability-schedules?user_id=${w.team.userId}`);
    expect(list.status).toBe(200);
    const s = list.body.data[0];
    expect(s).toMatchObject({ user_id: w.team.userId, is_default: true, timezone: 'UTC', date_overrides: [] });
    expect(s.rules).toContainEqual({ day: 1, start: '09:00', end: '17:00', enabled: true });
    const viaKey = await w.api.patch(`/api/v1/availability-schedules/${s.id}`, { timezone: 'Europe/London' });
    expect(viaKey.status).toBe(403);
    expect(viaKey.body.error.code).toBe('dashboard_only');
    const dash = client(w.app.baseUrl, w.team.session);
    const badTz = await dash.patch(`/api/v1/availability-schedules/${s.id}`, { timezone: 'Mars/Olympus' });
    expect(badTz.status).toBe(400);
    const ok = await dash.patch(`/api/v1/availability-schedules/${s.id}`, {
      timezone: 'Europe/London',
      rules: [{ day: 2, start: '10:00', end: '12:00', enabled: true }],
    });
    expect(ok.body.data).toMatchObject({ timezone: 'Europe/London', rules: [{ day: 2, start: '10:00', end: '12:00', enabled: true }] });
    const o = await dash.post(`/api/v1/availability-schedules/${s.id}/date-overrides`, {
      date: '2031-12-25',
      is_unavailable: true,
      reason: 'Holiday',
    });
    expect(o.status).toBe(201);
    const got = await w.api.get(`/api/v1/availability-schedules/${s.id}`);
    expect(got.body.data.date_overrides).toEqual([
      expect.objectContaining({ date: '2031-12-25', is_unavailable: true, reason: 'Holiday' }),
    ]);
    expect(
      (await dash.post(`/api/v1/availability-schedules/${s.id}/date-overrides`, { date: '2031-12-25', is_unavailable: true })).status,
    ).toBe(409);
  });

  it('removes a date override from the dashboard: gone from the schedule, the date free to override anew, a second removal 404', async () => {
    const dash = client(w.app.baseUrl, w.team.session);
    const s = (await w.api.get(`/api/v1/availability-schedules?user_id=${w.team.userId}`)).body.data[0];
    const added = await dash.post(`/api/v1/availability-schedules/${s.id}/date-overrides`, {
      date: '2032-01-02',
      is_unavailable: true,
      reason: 'Away',
    });
    expect(added.status).toBe(201);
    const override = added.body.data.date_overrides.find((o: { date: string }) => o.date === '2032-01-02');
    expect(override.id).toEqual(expect.any(String));
    const others = added.body.data.date_overrides.filter((o: { id: string }) => o.id !== override.id);

    const removed = await dash.delete(`/api/v1/availability-schedules/${s.id}/date-overrides/${override.id}`);
    expect(removed.status).toBe(204);
    expect(removed.text).toBe('');
    const after = await w.api.get(`/api/v1/availability-schedules/${s.id}`);
    expect(after.body.data.date_overrides).toEqual(others);
    expect(await w.tdb.db('availability_date_overrides').where({ id: override.id }).first()).toBeUndefined();

    const again = await dash.delete(`/api/v1/availability-schedules/${s.id}/date-overrides/${override.id}`);
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe('not_found');
    // The date can be overridden anew.
    expect(
      (await dash.post(`/api/v1/availability-schedules/${s.id}/date-overrides`, { date: '2032-01-02', is_unavailable: true })).status,
    ).toBe(201);
  });
});

describe('meetings', () => {
  it('lists with filters and limit, reads ai_notes, recording and field_values', async () => {
    const t = await createTestTeam(w.tdb.db);
    const base = Date.parse('2031-03-01T10:00:00Z');
    const ids = [];
    for (let i = 0; i < 4; i++)
      ids.push(await insertMeeting(w.tdb.db, t, { startMs: base + i * 86_400_000, status: i === 3 ? 'completed' : 'scheduled' }));
    await w.tdb
      .db('meetings')
      .where({ id: ids[0] })
      .update({
        ai_notes: jsonb({ summary: 'Went well', action_items: ['Send quote'] }),
        recording: jsonb({ url: 'https://rec.example.com/1', duration_seconds: 1800 }),
      });
    const tApi = client(w.app.baseUrl, t.apiKey);
    const all = await tApi.get('/api/v1/meetings?limit=2');
    expect(all.body.meta).toEqual({ total: 4, page: 1, per_page: 2, total_pages: 2 });
    expect(all.body.data.map((m: { id: string }) => m.id)).toEqual(ids.slice(0, 2));
    expect(all.body.data[0].ai_notes).toEqual({ summary: 'Went well', action_items: ['Send quote'] });
    const since = await tApi.get('/api/v1/meetings?since=2031-03-02&until=2031-03-04T00:00:00Z');
    expect(since.body.data.map((m: { id: string }) => m.id)).toEqual([ids[1], ids[2]]);
    const done = await tApi.get('/api/v1/meetings?status=completed');
    expect(done.body.data.map((m: { id: string }) => m.id)).toEqual([ids[3]]);
    expect((await tApi.get('/api/v1/meetings?status=unknown')).status).toBe(400);
    expect((await tApi.get('/api/v1/meetings?since=yesterday')).status).toBe(400);
    const one = await tApi.get(`/api/v1/meetings/${ids[0]}`);
    expect(one.body.data).toMatchObject({
      recording: { url: 'https://rec.example.com/1', duration_seconds: 1800 },
      field_values: {},
      status: 'scheduled',
    });
  });

  it('follows the transition table; other changes get 409 invalid_transition', async () => {
    const id = await insertMeeting(w.tdb.db, w.team);
    const noReason = await w.api.patch(`/api/v1/meetings/${id}`, { cancellation_reason: 'x' });
    expect(noReason.status).toBe(409);
    expect(noReason.body.error.code).toBe('invalid_transition');
    expect((await w.api.patch(`/api/v1/meetings/${id}`, { status: 'completed', notes: 'Good call' })).body.data).toMatchObject({
      status: 'completed',
      notes: 'Good call',
    });
    expect((await w.api.patch(`/api/v1/meetings/${id}`, { status: 'no_show' })).body.data.status).toBe('no_show');
    const back = await w.api.patch(`/api/v1/meetings/${id}`, { status: 'scheduled' });
    expect(back.status).toBe(409);
    expect(back.body.error.code).toBe('invalid_transition');
    const id2 = await insertMeeting(w.tdb.db, w.team);
    const c = await w.api.patch(`/api/v1/meetings/${id2}`, { status: 'cancelled', cancellation_reason: 'Host sick' });
    expect(c.body.data).toMatchObject({ status: 'cancelled', cancellation_reason: 'Host sick' });
    expect((await w.api.patch(`/api/v1/meetings/${id2}`, { status: 'cancelled' })).status).toBe(200);
    expect((await w.api.patch(`/api/v1/meetings/${id2}`, { status: 'scheduled' })).status).toBe(409);
    const outbox = await w.tdb.db('outbox').where({ workflow_id: `meeting-cleanup-${id2}` });
    expect(outbox).toHaveLength(1);
    expect((await w.api.delete(`/api/v1/meetings/${id2}`)).status).toBe(204);
    expect((await w.api.get(`/api/v1/meetings/${id2}`)).status).toBe(404);
  });
});
