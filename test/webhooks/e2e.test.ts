import { Webhook } from 'standardwebhooks';
import { verifyBodySignature } from '../../domain/webhook-signature';
import { client, http } from '../helpers/http';
import { createWebhookEnv, startWorker, testActivities } from './harness';
import { startReceiver } from './receiver';
import { useApiWorld } from '../helpers/world';

const world = useApiWorld({ temporal: createWebhookEnv });

it('a public submission reaches the receiver: API → outbox → Temporal → worker → receiver', async () => {
  const rx = await startReceiver();
  const api = client(world.app.baseUrl, world.team.apiKey);
  const form = (
    await api.post('/api/v1/forms', {
      title: 'Webhook form',
      status: 'published',
      fields: [
        { type: 'email', label: 'Email', name: 'email', required: true },
        { type: 'text', label: 'Name', name: 'name' },
      ],
    })
  ).body.data;
  const hook = await api.post('/api/v1/webhooks', { url: rx.url, events: ['submission.created'], form_id: form.id });
  expect(hook.status).toBe(201);
  const { activities } = testActivities(world.tdb.db, world.env);
  const w = await startWorker(world.env, activities);
  try {
    const res = await http(world.app.baseUrl, 'post', `/api/forms/${form.slug}/submissions?utm_source=news&tracking_id=t-1`, {
      body: { fields: { email: 'ada@example.com', name: 'Ada' } },
      headers: { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile', referer: 'https://ref.example.com/' },
    });
    expect(res.status).toBe(201);
    await rx.waitFor(1); // no relay call here: the API's fast path started the workflow
    const [r] = rx.received;
    const body = JSON.parse(r.body);
    expect(body).toMatchObject({
      event: 'submission.created',
      data: {
        form_id: form.id,
        form_title: 'Webhook form',
        form_slug: form.slug,
        submission_id: res.body.data.id,
        submission_data: { email: 'ada@example.com', name: 'Ada' },
      },
    });
    expect(Date.parse(body.timestamp)).not.toBeNaN();
    expect(Date.parse(body.data.submitted_at)).not.toBeNaN();
    for (const k of [
      'referrer',
      'user_agent',
      'device_type',
      'country',
      'utm_source',
      'utm_medium',
      'utm_campaign',
      'partner_token',
      'attribution_id',
      'tracking_id',
      'visitor_id',
      'session_id',
    ]) {
      expect(body.data.metadata).toHaveProperty(k);
    }
    expect(body.data.metadata).toMatchObject({ utm_source: 'news', tracking_id: 't-1', utm_medium: null });
    expect(r.headers['x-webhook-event']).toBe('submission.created');
    expect(verifyBodySignature(hook.body.data.secret, r.body, r.headers['x-webhook-signature'] as string)).toBe(true);
    expect(new Webhook(hook.body.data.secret).verify(r.body, r.headers as Record<string, string>)).toBeTruthy();
    // The delivery log shows the success.
    const deadline = Date.now() + 10_000;
    let d;
    do {
      d = (await api.get(`/api/v1/webhooks/${hook.body.data.id}/deliveries`)).body.data[0];
      if (d?.status === 'succeeded') break;
      await new Promise((res) => setTimeout(res, 100));
    } while (Date.now() < deadline);
    expect(d).toMatchObject({ status: 'succeeded', attempt_count: 1, webhook_id: r.headers['x-webhook-id'] });
    expect(d.attempts[0]).toMatchObject({ status_code: 200, outcome: 'success', response_body: 'ok' });
  } finally {
    w.worker.shutdown();
    await w.done;
    await rx.close();
  }
});
