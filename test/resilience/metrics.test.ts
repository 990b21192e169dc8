/**
 * The Prometheus endpoint (core/metrics.ts) on its own listener: request counts and latencies by
 * route template move with a submission, webhook attempts by outcome and the delivery gauges move
 * with a delivery, and no label carries an id, an address or a token.
 */
import { webhookFirstAttempt } from '../../activities/webhooks/first-attempt';
import { serveMetrics } from '../../core/metrics';
import { registerDatabaseGauges } from '../../services/health/gauges';
import type { OutboxStarter } from '../../temporal/outbox';
import { makeForm } from '../fixtures/forms';
import { testConfig } from '../helpers/config';
import { http } from '../helpers/http';
import { useApiWorld } from '../helpers/world';
import { createWebhookEnv, emit, subscribe, testActivities } from '../webhooks/harness';
import { startReceiver } from '../webhooks/receiver';

const world = useApiWorld({ temporal: createWebhookEnv });
let metrics: { port: number; close(): Promise<void> };
let outbox: OutboxStarter;

beforeAll(async () => {
  registerDatabaseGauges({ db: world.tdb.db }, {});
  metrics = await serveMetrics(0, '127.0.0.1');
  ({ outbox } = testActivities(world.tdb.db, world.env));
  outbox.setDirect('webhookDeliveryWorkflow', webhookFirstAttempt({ db: world.tdb.db, config: testConfig() }));
});
afterAll(() => metrics?.close());

const scrape = async () => (await http(`http://127.0.0.1:${metrics.port}`, 'get', '/metrics')).text;
/** The value of one series (0 when absent), `labels` written as Prometheus prints them. */
const value = (text: string, name: string, labels = '') => {
  const line = text.split('\n').find((l) => l.startsWith(`${name}${labels ? `{${labels}}` : ''} `));
  return line ? Number(line.split(' ').pop()) : 0;
};

const SUBMIT = 'method="POST",route="/api/forms/:id_or_slug/submissions",status="201"';

it('counts a submission and its latency under the route template, on the metrics port only', async () => {
  const form = await makeForm(world.tdb.db, world.team.teamId);
  const before = await scrape();
  const res = await http(world.app.baseUrl, 'post', `/api/forms/${form.id}/submissions`, { body: { fields: { email: 'm@example.com' } } });
  expect(res.status).toBe(201);
  const after = await scrape();
  expect(value(after, 'fss_http_requests_total', SUBMIT)).toBe(value(before, 'fss_http_requests_total', SUBMIT) + 1);
  expect(value(after, 'fss_http_request_duration_seconds_count', SUBMIT)).toBe(
    value(before, 'fss_http_request_duration_seconds_count', SUBMIT) + 1,
  );
  // Never the path's id, an address, nor a team.
  expect(after).not.toContain(form.id);
  expect(after).not.toContain('m@example.com');
  expect(after).not.toContain(world.team.teamId);
  // The public API does not serve them.
  expect((await http(world.app.baseUrl, 'get', '/metrics')).status).toBe(404);
});

it('counts a delivered webhook attempt by outcome, and shows the deliveries waiting', async () => {
  const rx = await startReceiver();
  const sub = await subscribe(world.tdb.db, world.team.teamId, rx.url);
  const before = await scrape();
  expect(value(before, 'fss_webhook_deliveries_pending')).toBe(0);
  await emit(world.tdb.db, outbox, world.team.teamId, { metrics: 1 });
  await outbox.drainDirect();
  expect(rx.received).toHaveLength(1);
  const after = await scrape();
  const success = 'outcome="success"';
  expect(value(after, 'fss_webhook_attempts_total', success)).toBe(value(before, 'fss_webhook_attempts_total', success) + 1);
  expect(value(after, 'fss_webhook_deliveries_pending')).toBe(0);
  expect(after).not.toContain(sub.id);
  expect(after).toMatch(/^fss_mail_messages_last_hour\{class="hard_bounce"\} 0$/m);
  expect(after).toMatch(/^fss_calendar_oldest_sync_age_seconds 0$/m);
  await rx.close();
});
