import { makeContact } from '../sequences/support/factory';
import { useWorld } from '../sequences/support/world';
import { useInboundListener } from './inbound-support';
import { BOUNCES, OTHERS, ORIGINAL_ID, TOKEN } from './corpus';

/**
 * Real SMTP both ways: our outbound goes to the test SMTP server; what comes back is sent with
 * nodemailer to the inbound listener, stored, classified by a workflow on the time-skipping
 * server, and acted on.
 */
const w = useWorld({ appEnv: { MAIL_BOUNCE_DOMAIN: 'bounces.test', MAIL_REPLY_DOMAIN: 'reply.test' } });
const deliver = useInboundListener(w);

async function running() {
  const step = (days: number) => ({ channel: 'email', delay: { value: days, unit: 'days' }, subject: `Day ${days}`, body: '<p>Hi</p>' });
  const res = await w.dash.post('/api/v1/sequences', { name: 'In', status: 'active', steps: [step(0), step(3)] });
  const seq = res.body.data as { id: string; steps: Array<{ id: string }> };
  const email = `in-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const contact = await makeContact(w.tdb.db, w.team.teamId, { email });
  const e = (await w.api.post(`/api/v1/sequences/${seq.id}/enrollments`, { contact_id: contact })).body.data[0] as { id: string };
  const handle = () => w.env.client.workflow.getHandle(`enrollment-${e.id}`);
  await w.waitStarted(`enrollment-${e.id}`);
  for (let i = 0; ; i++) {
    const s = await handle().query<{ phase: string; stepId: string | null }>('state');
    if (s.phase === 'waiting_delay' && s.stepId === seq.steps[1].id) break;
    if (i > 400) throw new Error('the first step was never sent');
    await new Promise((r) => setTimeout(r, 25));
  }
  const send = await w.tdb.db('sequence_sends').where({ enrollment_id: e.id }).first();
  return { seq, contact, email, e, send, handle };
}

/** Wait (in real time, no time skipping) until the inbound message is processed. */
async function processed(count: number) {
  for (let i = 0; i < 400; i++) {
    const rows = await w.tdb.db('inbound_emails').whereNotNull('processed_at').count({ n: '*' });
    if (Number(rows[0].n) >= count) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('inbound email not processed');
}

async function closed(enrollmentId: string) {
  const h = w.env.client.workflow.getHandle(`enrollment-${enrollmentId}`);
  for (let i = 0; i < 200; i++) {
    if ((await h.describe()).status.name === 'COMPLETED') return h.result();
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('enrollment did not complete');
}

let inbound = 0;
const forSend = (raw: string, send: { token: string; message_id: string | null }) =>
  raw.replaceAll(TOKEN, send.token).replaceAll(ORIGINAL_ID, send.message_id ?? '');

test('mail for any other domain is refused at RCPT (never an open relay)', async () => {
  await expect(deliver('Subject: x\r\n\r\nhi\r\n', { from: 'a@example.org', to: ['victim@gmail.com'] })).rejects.toMatchObject({
    responseCode: 550,
  });
  const [{ n }] = await w.tdb.db('inbound_emails').count({ n: '*' });
  expect(Number(n)).toBe(0);
});

test('a DSN to the VERP address: bounce recorded, address undeliverable, exit email_bounced', async () => {
  const { e, send, contact, email } = await running();
  await deliver(forSend(BOUNCES[0].raw, send!), { from: '', to: [`bounce+${send!.token}@bounces.test`] });
  await processed(++inbound);
  expect(await closed(e.id)).toMatchObject({ status: 'exited', reason: 'email_bounced' });
  const row = await w.tdb.db('sequence_sends').where({ id: send!.id }).first();
  expect(row).toMatchObject({ bounce_type: 'hard', bounce_status: '5.1.1' });
  expect((await w.tdb.db('contacts').where({ id: contact }).first())!.email_undeliverable_at).toBeInstanceOf(Date);
  expect(w.smtp.messages.filter((m) => m.to === email)).toHaveLength(1);
  const stored = await w.tdb.db('inbound_emails').where({ send_id: send!.id }).first();
  expect(stored).toMatchObject({ kind: 'bounce', mail_from: '' });
});

test('a human reply matched only by In-Reply-To: exit replied, step 2 never sent', async () => {
  const { e, send, email } = await running();
  const raw = `From: Ada <${email}>\r\nTo: sales@reply.test\r\nSubject: Re: Day 0\r\nIn-Reply-To: ${send!.message_id}\r\nContent-Type: text/plain\r\n\r\nYes, call me.\r\n`;
  await deliver(raw, { from: email, to: ['sales@reply.test'] });
  await processed(++inbound);
  expect(await closed(e.id)).toMatchObject({ status: 'exited', reason: 'replied' });
  await w.env.sleep(4 * 86_400_000);
  expect(w.smtp.messages.filter((m) => m.to === email)).toHaveLength(1);
  expect((await w.tdb.db('sequence_sends').where({ id: send!.id }).first())!.replied_at).toBeInstanceOf(Date);
  const detail = await w.api.get(`/api/v1/contacts/${send!.contact_id}`);
  expect(detail.body.data.enrollments[0]).toMatchObject({ exit_reason: 'replied', exit_reason_label: 'Replied to an email' });
  // Replies to sequence mail go on the contact's timeline too (and out as email.replied).
  expect(detail.body.data.timeline).toEqual([
    expect.objectContaining({
      type: 'email.replied',
      email: expect.objectContaining({
        from: email,
        excerpt: expect.stringContaining('Yes, call me.'),
        in_reply_to: expect.objectContaining({
          type: 'sequence',
          message_id: send!.message_id,
          enrollment_id: e.id,
          step_id: send!.step_id,
        }),
      }),
    }),
  ]);
});

test('an out-of-office reply is recorded and does not exit', async () => {
  const { e, send, handle } = await running();
  const ooo = OTHERS.find((m) => m.name.includes('out-of-office'))!;
  await deliver(forSend(ooo.raw, send!), { from: 'ada@example.org', to: [`reply+${send!.token}@reply.test`] });
  await processed(++inbound);
  expect((await w.tdb.db('sequence_sends').where({ id: send!.id }).first())!.auto_replied_at).toBeInstanceOf(Date);
  expect((await w.tdb.db('sequence_enrollments').where({ id: e.id }).first())!.status).toBe('active');
  expect((await handle().describe()).status.name).toBe('RUNNING');
});

test('an ARF complaint: unsubscribed from email, exit email_complained', async () => {
  const { e, send, contact } = await running();
  const arf = OTHERS.find((m) => m.expect.kind === 'complaint')!;
  await deliver(forSend(arf.raw, send!), { from: 'fbl@isp.example', to: [`bounce+${send!.token}@bounces.test`] });
  await processed(++inbound);
  expect(await closed(e.id)).toMatchObject({ status: 'exited', reason: 'email_complained' });
  const c = await w.tdb.db('contacts').where({ id: contact }).first();
  expect(c!.unsubscribed_email).toBe(true);
  expect(await w.tdb.db('sequence_unsubscribes').where({ contact_id: contact }).first()).toMatchObject({ source: 'complaint' });
  expect((await w.tdb.db('sequence_sends').where({ id: send!.id }).first())!.complained_at).toBeInstanceOf(Date);
});

test('garbage is stored, logged as unknown, and the listener keeps serving', async () => {
  await deliver('\u0000\u0001 not a mail at all', { from: 'x@example.org', to: ['anything@reply.test'] });
  await processed(++inbound);
  const last = await w.tdb.db('inbound_emails').orderBy('received_at', 'desc').first();
  expect(['unknown', 'unparseable']).toContain(last!.kind);
  await expect(deliver('Subject: x\r\n\r\nhi\r\n', { from: 'a@example.org', to: ['x@evil.example'] })).rejects.toMatchObject({
    responseCode: 550,
  });
});
