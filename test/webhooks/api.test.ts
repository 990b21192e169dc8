import { openWebhookSecret } from '../../services/webhooks/secrets';
import { recordEvent } from '../../services/events/record';
import { transactionWithOutbox } from '../../temporal/outbox';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestTeam } from '../helpers/fixtures';
import { client } from '../helpers/http';
import { useApiWorld } from '../helpers/world';

let strict: TestApp; // ALLOW_LOOPBACK_WEBHOOK_URLS=false, ALLOW_PRIVATE_WEBHOOK_URLS=false (production defaults)
let privateOnly: TestApp;
let both: TestApp;

const w = useApiWorld({ other: true });
beforeAll(async () => {
  strict = await startTestApp(w.tdb.db, { env: { ALLOW_LOOPBACK_WEBHOOK_URLS: 'false' } });
  privateOnly = await startTestApp(w.tdb.db, { env: { ALLOW_LOOPBACK_WEBHOOK_URLS: 'false', ALLOW_PRIVATE_WEBHOOK_URLS: 'true' } });
  both = await startTestApp(w.tdb.db, { env: { ALLOW_LOOPBACK_WEBHOOK_URLS: 'true', ALLOW_PRIVATE_WEBHOOK_URLS: 'true' } });
  w.app.deps.outbox.fastPath = false; // no Temporal here: starts wait in the outbox
  w.onTeardown(() => Promise.all([strict.close(), privateOnly.close(), both.close()]));
});

const api = () => client(w.app.baseUrl, w.team.apiKey);

async function makeForm(teamId: string): Promise<string> {
  const [row] = await w.tdb
    .db('forms')
    .insert({ team_id: teamId, title: 'F', slug: `f-${Math.random().toString(36).slice(2)}` })
    .returning('id');
  return row.id;
}

describe('subscriptions', () => {
  it('creates a subscription, shows the secret once, and never again', async () => {
    const res = await api().post('/api/v1/webhooks', {
      url: 'http://127.0.0.1:4000/hook',
      events: ['submission.created', 'submission.created'],
      description: 'CRM',
    });
    expect(res.status).toBe(201);
    const s = res.body.data;
    expect(s).toMatchObject({
      url: 'http://127.0.0.1:4000/hook',
      events: ['submission.created'],
      form_id: null,
      status: 'active',
      disabled_reason: null,
      description: 'CRM',
    });
    expect(s.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(s.secret.slice(6), 'base64')).toHaveLength(32);
    const got = await api().get(`/api/v1/webhooks/${s.id}`);
    expect(got.status).toBe(200);
    expect(got.body.data.secret).toBeUndefined();
    expect(got.text).not.toContain(s.secret);
    const list = await api().get('/api/v1/webhooks?per_page=100');
    expect(list.body.data.map((x: { id: string }) => x.id)).toContain(s.id);
    expect(list.text).not.toContain(s.secret);
    expect(list.body.meta).toMatchObject({ page: 1, per_page: 100 });
  });

  // Each address class against each setting: `strict` allows neither, the test default allows
  // loopback (as `npm run dev` does), `privateOnly` private ranges, `both` both.
  const NEVER = [
    'https://169.254.169.254/latest',
    'http://169.254.169.254/latest',
    'https://[fd00:ec2::254]/h',
    'https://[fe80::1]/h',
    'https://100.100.100.200/h',
    'https://metadata.google.internal/computeMetadata/v1',
    'https://0.0.0.0/h',
    'https://[::ffff:169.254.169.254]/h',
    'https://224.0.0.1/h',
  ];
  const LOOPBACK = [
    'http://127.0.0.1:4000/h',
    'https://127.0.0.1/h',
    'https://[::1]/h',
    'http://localhost:3000/h',
    'https://api.localhost/h',
  ];
  const PRIVATE = [
    'https://10.1.2.3/h',
    'https://172.16.0.5/h',
    'https://192.168.1.10/h',
    'https://[fd12:3456::1]/h',
    'https://build.internal/h',
  ];
  const create = (a: TestApp, url: string) =>
    client(a.baseUrl, w.team.apiKey).post('/api/v1/webhooks', { url, events: ['submission.created'] });
  async function statuses(a: TestApp, urls: string[]): Promise<Array<[string, number]>> {
    const out: Array<[string, number]> = [];
    for (const url of urls) out.push([url, (await create(a, url)).status]);
    return out;
  }
  const all = (urls: string[], status: number) => urls.map((u) => [u, status]);

  it('by default (production): https to public hosts only', async () => {
    for (const url of [
      'http://example.com/h',
      'ftp://example.com/h',
      'https://user:pw@example.com/h',
      'not a url',
      ...LOOPBACK,
      ...PRIVATE,
      ...NEVER,
    ]) {
      const res = await create(strict, url);
      expect([url, res.status, res.body.error?.code]).toEqual([url, 400, 'validation_failed']);
      expect(res.body.error.details[0].path).toBe('body.url');
    }
    expect((await create(strict, 'https://hooks.example.com/h')).status).toBe(201);
  });

  it('ALLOW_LOOPBACK_WEBHOOK_URLS (on under npm run dev): loopback, http included; still no private range, no other http', async () => {
    expect(await statuses(w.app, LOOPBACK)).toEqual(all(LOOPBACK, 201));
    expect(await statuses(w.app, [...PRIVATE, 'http://example.com/h', 'http://10.1.2.3/h'])).toEqual(
      all([...PRIVATE, 'http://example.com/h', 'http://10.1.2.3/h'], 400),
    );
    const res = await create(w.app, 'https://10.1.2.3/h');
    expect(res.body.error.details[0].message).toMatch(/private address \(ALLOW_PRIVATE_WEBHOOK_URLS/);
  });

  it('ALLOW_PRIVATE_WEBHOOK_URLS: private ranges over https; not loopback, not http', async () => {
    expect(await statuses(privateOnly, PRIVATE)).toEqual(all(PRIVATE, 201));
    expect(await statuses(privateOnly, [...LOOPBACK, 'http://10.1.2.3/h'])).toEqual(all([...LOOPBACK, 'http://10.1.2.3/h'], 400));
  });

  it('link-local and metadata addresses are refused whatever the config says', async () => {
    expect(await statuses(both, NEVER)).toEqual(all(NEVER, 400));
    const res = await create(both, 'https://169.254.169.254/latest');
    expect(res.body.error.details[0].message).toMatch(/link-local, metadata or reserved/);
    expect(await statuses(both, [LOOPBACK[0], PRIVATE[0]])).toEqual(all([LOOPBACK[0], PRIVATE[0]], 201));
  });

  it('validates events and form_id; a form of another team is not found', async () => {
    expect((await api().post('/api/v1/webhooks', { url: 'http://127.0.0.1:1/h', events: [] })).status).toBe(400);
    expect((await api().post('/api/v1/webhooks', { url: 'http://127.0.0.1:1/h', events: ['form.created'] })).status).toBe(400);
    expect(
      (await api().post('/api/v1/webhooks', { url: 'http://127.0.0.1:1/h', events: ['submission.created'], secret: 'x' })).status,
    ).toBe(400);
    const foreign = await makeForm(w.other.teamId);
    const res = await api().post('/api/v1/webhooks', { url: 'http://127.0.0.1:1/h', events: ['submission.created'], form_id: foreign });
    expect(res.status).toBe(404);
    const mine = await makeForm(w.team.teamId);
    const ok = await api().post('/api/v1/webhooks', { url: 'http://127.0.0.1:1/h', events: ['submission.created'], form_id: mine });
    expect(ok.status).toBe(201);
    expect(ok.body.data.form_id).toBe(mine);
  });

  it('updates partially, disables and re-enables, and deletes', async () => {
    const { body } = await api().post('/api/v1/webhooks', { url: 'http://127.0.0.1:4000/a', events: ['submission.created'] });
    const id = body.data.id;
    const p1 = await api().patch(`/api/v1/webhooks/${id}`, { events: ['submission.updated', 'submission.deleted'] });
    expect(p1.status).toBe(200);
    expect(p1.body.data).toMatchObject({ url: 'http://127.0.0.1:4000/a', events: ['submission.updated', 'submission.deleted'] });
    const p2 = await api().patch(`/api/v1/webhooks/${id}`, { status: 'disabled' });
    expect(p2.body.data).toMatchObject({ status: 'disabled', disabled_reason: 'manual' });
    const p3 = await api().patch(`/api/v1/webhooks/${id}`, { status: 'active' });
    expect(p3.body.data).toMatchObject({ status: 'active', disabled_reason: null });
    expect((await api().patch(`/api/v1/webhooks/${id}`, { url: 'ftp://x' })).status).toBe(400);
    expect((await api().patch(`/api/v1/webhooks/${id}`, { bogus: 1 })).status).toBe(400);
    expect((await api().delete(`/api/v1/webhooks/${id}`)).status).toBe(204);
    expect((await api().get(`/api/v1/webhooks/${id}`)).status).toBe(404);
    expect((await api().delete(`/api/v1/webhooks/${id}`)).status).toBe(404);
  });

  it('rotates the secret: a new one shown once, the old one kept 24 h for signing', async () => {
    const { body } = await api().post('/api/v1/webhooks', { url: 'http://127.0.0.1:4000/r', events: ['submission.created'] });
    const res = await api().post(`/api/v1/webhooks/${body.data.id}/rotate-secret`);
    expect(res.status).toBe(200);
    expect(res.body.data.secret).toMatch(/^whsec_/);
    expect(res.body.data.secret).not.toBe(body.data.secret);
    const expires = Date.parse(res.body.data.previous_secret_expires_at);
    expect(Math.abs(expires - Date.now() - 24 * 3600 * 1000)).toBeLessThan(60_000);
    const row = await w.tdb.db('webhook_subscriptions').where({ id: body.data.id }).first();
    const open = (which: 'current' | 'previous', sealed: string) => openWebhookSecret(w.app.config, { id: body.data.id, sealed, which });
    expect(open('previous', row!.previous_secret_enc!)).toBe(body.data.secret);
    expect(open('current', row!.secret_enc)).toBe(res.body.data.secret);
    expect(row!.secret_enc).not.toContain(res.body.data.secret);
  });

  it("hides another team's subscriptions", async () => {
    const { body } = await api().post('/api/v1/webhooks', { url: 'http://127.0.0.1:4000/x', events: ['submission.created'] });
    const theirs = client(w.app.baseUrl, w.other.apiKey);
    expect((await theirs.get(`/api/v1/webhooks/${body.data.id}`)).status).toBe(404);
    expect((await theirs.get('/api/v1/webhooks')).body.data).toEqual([]);
  });
});

describe('fan-out', () => {
  it('creates one delivery and one outbox start per matching active subscription', async () => {
    const t = await createTestTeam(w.tdb.db);
    const c = client(w.app.baseUrl, t.apiKey);
    const formA = await makeForm(t.teamId);
    const formB = await makeForm(t.teamId);
    const mk = async (body: object) =>
      (await c.post('/api/v1/webhooks', { url: 'http://127.0.0.1:4000/f', ...body })).body.data.id as string;
    const all = await mk({ events: ['submission.created'] });
    const onlyA = await mk({ events: ['submission.created'], form_id: formA });
    const onlyB = await mk({ events: ['submission.created'], form_id: formB });
    const otherType = await mk({ events: ['submission.deleted'] });
    const disabled = await mk({ events: ['submission.created'], status: 'disabled' });
    const event = await transactionWithOutbox(w.tdb.db, w.app.deps.outbox, (trx, enqueue) =>
      recordEvent(trx, enqueue, {
        teamId: t.teamId,
        type: 'submission.created',
        formId: formA,
        payload: { event: 'submission.created', timestamp: new Date().toISOString(), data: { form_id: formA } },
      }),
    );
    const rows = await w.tdb.db('webhook_deliveries').where({ event_id: event.id });
    expect(rows.map((r) => r.subscription_id).sort()).toEqual([all, onlyA].sort());
    expect(rows.every((r) => r.status === 'pending' && JSON.parse(r.body).data.form_id === formA)).toBe(true);
    const starts = await w.tdb.db('outbox').where('workflow_id', 'like', `%-${event.id}`);
    expect(starts.map((s) => s.workflow_id).sort()).toEqual([`webhook-${all}-${event.id}`, `webhook-${onlyA}-${event.id}`].sort());
    expect(starts[0]).toMatchObject({ workflow_type: 'webhookDeliveryWorkflow' });
    expect(starts[0].search_attributes).toMatchObject({ TeamId: t.teamId, EventType: 'submission.created' });
    for (const id of [onlyB, otherType, disabled])
      expect(await w.tdb.db('webhook_deliveries').where({ subscription_id: id }).first()).toBeUndefined();

    const list = await c.get(`/api/v1/webhooks/${all}/deliveries`);
    expect(list.status).toBe(200);
    expect(list.body.meta.total).toBe(1);
    expect(list.body.data[0]).toMatchObject({ event_id: event.id, event_type: 'submission.created', status: 'pending', attempts: [] });
    expect(list.body.data[0].payload.data.form_id).toBe(formA);

    // A delivery still being attempted cannot be retried; a finished one can, under a new workflow id.
    const did = list.body.data[0].id;
    expect((await c.post(`/api/v1/webhooks/${all}/deliveries/${did}/retry`)).status).toBe(409);
    await w.tdb.db('webhook_deliveries').where({ id: did }).update({ status: 'failed' });
    const retry = await c.post(`/api/v1/webhooks/${all}/deliveries/${did}/retry`);
    expect(retry.status).toBe(202);
    expect(retry.body.data.status).toBe('pending');
    expect(
      await w.tdb
        .db('outbox')
        .where({ workflow_id: `webhook-${all}-${event.id}-retry-1` })
        .first(),
    ).toBeDefined();
    expect((await c.post(`/api/v1/webhooks/${onlyB}/deliveries/${did}/retry`)).status).toBe(404);
  });

  it('sends a test event to the one subscription only', async () => {
    const t = await createTestTeam(w.tdb.db);
    const c = client(w.app.baseUrl, t.apiKey);
    const a = (await c.post('/api/v1/webhooks', { url: 'http://127.0.0.1:4000/t', events: ['submission.created'] })).body.data.id;
    const b = (await c.post('/api/v1/webhooks', { url: 'http://127.0.0.1:4000/t', events: ['submission.created'] })).body.data.id;
    const res = await c.post(`/api/v1/webhooks/${a}/test`);
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({ event_type: 'webhook.test', status: 'pending', subscription_id: a });
    expect(res.body.data.payload).toMatchObject({ event: 'webhook.test', data: { subscription_id: a } });
    expect(await w.tdb.db('webhook_deliveries').where({ subscription_id: b })).toHaveLength(0);
    await c.patch(`/api/v1/webhooks/${b}`, { status: 'disabled' });
    expect((await c.post(`/api/v1/webhooks/${b}/test`)).status).toBe(409);
  });
});
