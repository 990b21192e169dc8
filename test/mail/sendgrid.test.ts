import { generateKeyPairSync, sign } from 'node:crypto';
import { makeContact } from '../sequences/support/factory';
import { useWorld } from '../sequences/support/world';

/** SendGrid's signed Event Webhook, with a P-256 key pair generated here (SendGrid holds the private key). */
const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const PUBLIC_B64 = publicKey.export({ format: 'der', type: 'spki' }).toString('base64');
/** Like SendGrid's SMTP relay: `250 Ok: queued as <X-Message-Id>`, the id its events' sg_message_id starts with. */
const xMessageIds = new Map<string, string>();
const w = useWorld({
  appEnv: { SENDGRID_WEBHOOK_PUBLIC_KEY: PUBLIC_B64 },
  dataReply(m) {
    const id = `${Math.random().toString(36).slice(2, 12)}.dfd.${Date.now().toString(16)}`;
    xMessageIds.set(m.to, id);
    return `Ok: queued as ${id}`;
  },
});

function post(body: string, headers: Record<string, string>) {
  return fetch(`${w.app.baseUrl}/api/hooks/email/sendgrid`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
}
function signed(body: string, key = privateKey) {
  const ts = String(Math.floor(Date.now() / 1000));
  const sig = sign('sha256', Buffer.from(ts + body), key).toString('base64');
  return post(body, { 'X-Twilio-Email-Event-Webhook-Signature': sig, 'X-Twilio-Email-Event-Webhook-Timestamp': ts });
}

async function sentMessage(steps = 2) {
  const step = (d: number) => ({ channel: 'email', delay: { value: d, unit: 'days' }, subject: 'S', body: '<p>x</p>' });
  const seq = (await w.dash.post('/api/v1/sequences', { name: 'SG', status: 'active', steps: [0, 3].slice(0, steps).map(step) })).body.data;
  const contact = await makeContact(w.tdb.db, w.team.teamId);
  const e = (await w.api.post(`/api/v1/sequences/${seq.id}/enrollments`, { contact_id: contact })).body.data[0];
  for (let i = 0; i < 400; i++) {
    const send = await w.tdb.db('sequence_sends').where({ enrollment_id: e.id, status: 'sent' }).first();
    if (send) return { send, e, contact };
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('not sent');
}

test('unsigned, badly signed or signed with another key: 401', async () => {
  const body = JSON.stringify([{ event: 'delivered', 'smtp-id': '<x@y>' }]);
  expect((await post(body, {})).status).toBe(401);
  expect(
    (await post(body, { 'X-Twilio-Email-Event-Webhook-Signature': 'AAAA', 'X-Twilio-Email-Event-Webhook-Timestamp': '1' })).status,
  ).toBe(401);
  const other = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
  const res = await signed(body, other);
  expect(res.status).toBe(401);
  expect((await res.json()).error.code).toBe('invalid_token');
  // The signature covers the exact bytes: the same events re-serialised do not verify.
  const ts = '1700000000';
  const sig = sign('sha256', Buffer.from(ts + body), privateKey).toString('base64');
  expect(
    (
      await post(JSON.stringify(JSON.parse(body), null, 1), {
        'X-Twilio-Email-Event-Webhook-Signature': sig,
        'X-Twilio-Email-Event-Webhook-Timestamp': ts,
      })
    ).status,
  ).toBe(401);
});

test('delivered, open, click on the message named by smtp-id; analytics count them', async () => {
  const { send } = await sentMessage(1);
  const id = send.message_id as string;
  // Delivered an hour ago, opened and clicked now (a click seconds after delivery would be a scanner's).
  const now = Math.floor(Date.now() / 1000);
  const events = [
    { event: 'delivered', timestamp: now - 3600 },
    { event: 'open', timestamp: now },
    { event: 'click', timestamp: now },
  ].map((e) => ({ ...e, email: 'x@example.com', 'smtp-id': id }));
  expect((await signed(JSON.stringify(events))).status).toBe(204);
  const row = await w.tdb.db('sequence_sends').where({ id: send.id }).first();
  expect(row!.delivered_at).toBeInstanceOf(Date);
  expect(row!.clicked_at).toBeInstanceOf(Date);
  const stats = (await w.api.get(`/api/v1/sequences/${send.sequence_id}/analytics`)).body.data.steps[0];
  expect(stats).toMatchObject({ accepted: 1, delivered: 1, opened: 1, clicked: 1, bounced: 0 });
});

test('a bounce event exits email_bounced; a spamreport unsubscribes', async () => {
  const a = await sentMessage();
  const bounce = [{ event: 'bounce', type: 'bounce', status: '5.1.1', reason: '550 5.1.1 no such user', 'smtp-id': a.send.message_id }];
  expect((await signed(JSON.stringify(bounce))).status).toBe(204);
  expect((await w.tdb.db('sequence_enrollments').where({ id: a.e.id }).first())!.exit_reason).toBe('email_bounced');
  expect((await w.tdb.db('sequence_sends').where({ id: a.send.id }).first())!.bounce_type).toBe('hard');

  const b = await sentMessage();
  expect((await signed(JSON.stringify([{ event: 'spamreport', 'smtp-id': b.send.message_id }]))).status).toBe(204);
  expect((await w.tdb.db('sequence_enrollments').where({ id: b.e.id }).first())!.exit_reason).toBe('email_complained');
  expect((await w.tdb.db('contacts').where({ id: b.contact }).first())!.unsubscribed_email).toBe(true);
  const stats = (await w.api.get(`/api/v1/sequences/${b.send.sequence_id}/analytics`)).body.data.steps[0];
  expect(stats).toMatchObject({ complained: 1 });
});

test("SendGrid's blocked bounces, and bounces whose reason is a block, are blocks: the address and the enrollment stay", async () => {
  const events = async (e: Record<string, unknown>) => {
    const m = await sentMessage();
    expect((await signed(JSON.stringify([{ ...e, 'smtp-id': m.send.message_id }]))).status).toBe(204);
    expect((await w.tdb.db('sequence_sends').where({ id: m.send.id }).first())!.bounce_type).toBe('block');
    expect((await w.tdb.db('sequence_enrollments').where({ id: m.e.id }).first())!.status).toBe('active');
    expect((await w.tdb.db('contacts').where({ id: m.contact }).first())!.email_undeliverable_at).toBeNull();
  };
  await events({ event: 'bounce', type: 'blocked', status: '4.0.0', reason: '421 too many connections' });
  await events({ event: 'bounce', type: 'bounce', status: '5.7.1', reason: '550 5.7.1 Message rejected as spam by Content Filtering' });
  const blocks = (await w.api.get('/api/v1/team')).body.data.mail_blocks;
  expect(blocks.policy.count + blocks.content.count).toBeGreaterThanOrEqual(2);
});

test('events that carry only sg_message_id are matched by the SMTP queue id the send kept', async () => {
  const { send, e, contact } = await sentMessage();
  const to = (await w.tdb.db('contacts').where({ id: contact }).first())!.email as string;
  const xMessageId = xMessageIds.get(to)!;
  expect(send.smtp_queue_id).toBe(xMessageId);
  const sg = (n: number) => `${xMessageId}.filterdrecv-canary-7c8d4d8c9-abcde-1-6500A${n}-2B.0`;
  const events = [
    { event: 'delivered', email: to, timestamp: Math.floor(Date.now() / 1000), sg_message_id: sg(1) },
    // SendGrid's own verdict: Apple Mail Privacy Protection fetched the pixel.
    {
      event: 'open',
      email: to,
      timestamp: Math.floor(Date.now() / 1000),
      sg_message_id: sg(2),
      sg_machine_open: true,
      useragent: 'Mozilla/5.0',
    },
    // A link scanner right on delivery, then the reader an hour later from a browser.
    {
      event: 'click',
      email: to,
      timestamp: Math.floor(Date.now() / 1000),
      sg_message_id: sg(3),
      useragent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/124.0',
      ip: '81.2.69.142',
      url: 'https://example.com',
    },
    {
      event: 'click',
      email: to,
      timestamp: Math.floor(Date.now() / 1000) + 3600,
      sg_message_id: sg(4),
      useragent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/124.0',
      ip: '81.2.69.142',
      url: 'https://example.com',
    },
    { event: 'bounce', type: 'bounce', status: '5.1.1', reason: 'no such user', sg_message_id: 'unknownid.filter0001.1.2.3' },
  ];
  expect((await signed(JSON.stringify(events))).status).toBe(204);
  const row = await w.tdb.db('sequence_sends').where({ id: send.id }).first();
  expect(row).toMatchObject({
    delivered_at: expect.any(Date),
    machine_opened_at: expect.any(Date),
    scanner_clicked_at: expect.any(Date),
    clicked_at: expect.any(Date),
    bounced_at: null,
  });
  expect((await w.tdb.db('sequence_enrollments').where({ id: e.id }).first())!.status).toBe('active');
  const stats = (await w.api.get(`/api/v1/sequences/${send.sequence_id}/analytics`)).body.data.steps[0];
  expect(stats).toMatchObject({ delivered: 1, opened: 1, machine_opened: 1, clicked: 1, scanner_clicked: 1, bounced: 0 });

  // A bounce naming it only by sg_message_id exits the enrollment.
  const bounce = [{ event: 'bounce', type: 'bounce', status: '5.1.1', reason: '550 5.1.1 no such user', sg_message_id: sg(5) }];
  expect((await signed(JSON.stringify(bounce))).status).toBe(204);
  expect((await w.tdb.db('sequence_enrollments').where({ id: e.id }).first())!.exit_reason).toBe('email_bounced');
});

test('the made-up bounce endpoint is gone', async () => {
  const res = await fetch(`${w.app.baseUrl}/api/hooks/email/bounce`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  expect(res.status).toBe(404);
});
