import { makeContact } from '../sequences/support/factory';
import { useWorld } from '../sequences/support/world';
import { dsnMessage } from './dsn-message';
import { useInboundListener } from './inbound-support';

/**
 * Blocks (docs/sequences.md "Blocks"): a receiver that refuses us, not the address, never
 * suppresses the address and never ends the enrollment; the team sees the count by reason
 * (GET /api/v1/team `mail_blocks`, read-only), and analytics count `blocked`.
 */
const w = useWorld({
  appEnv: { MAIL_BOUNCE_DOMAIN: 'bounces.test', MAIL_REPLY_DOMAIN: 'reply.test' },
  rcptReply(address) {
    if (address.startsWith('spamblocked'))
      return { code: 554, message: '5.7.1 Service unavailable; Client host [192.0.2.1] blocked using zen.spamhaus.org' };
    return null;
  },
});
const deliver = useInboundListener(w);

const unique = (local: string) => `${local}-${Math.random().toString(36).slice(2, 8)}@example.com`;

async function sequence() {
  const step = (days: number) => ({ channel: 'email', delay: { value: days, unit: 'days' }, subject: `Day ${days}`, body: '<p>Hi</p>' });
  const res = await w.dash.post('/api/v1/sequences', { name: 'Blocks', status: 'active', steps: [step(0), step(3)] });
  expect(res.status).toBe(201);
  return res.body.data as { id: string; steps: Array<{ id: string }> };
}

async function sentFirst(email: string) {
  const seq = await sequence();
  const contact = await makeContact(w.tdb.db, w.team.teamId, { email });
  const e = (await w.api.post(`/api/v1/sequences/${seq.id}/enrollments`, { contact_id: contact })).body.data[0] as { id: string };
  for (let i = 0; i < 400; i++) {
    const send = await w.tdb.db('sequence_sends').where({ enrollment_id: e.id }).whereIn('status', ['sent', 'bounced']).first();
    if (send) return { seq, contact, e, send };
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the first step was never sent');
}

async function blocks() {
  const res = await w.api.get('/api/v1/team');
  expect(res.status).toBe(200);
  return res.body.data.mail_blocks as Record<string, { count: number; last_at: string | null }>;
}

function dsn(token: string, messageId: string) {
  return dsnMessage({
    to: `bounce+${token}@bounces.test`,
    status: '5.7.26',
    diagnostic: '550-5.7.26 Unauthenticated email from example.com is not accepted due to its DMARC policy',
    returnedHeaders: `Message-ID: ${messageId}`,
  });
}

test('a DMARC rejection coming back as a DSN: recorded as a block, counted, the address and the enrollment stay', async () => {
  const before = await blocks();
  const { contact, e, send } = await sentFirst(unique('ok'));
  await deliver(dsn(send.token, send.message_id ?? ''), { from: '', to: [`bounce+${send.token}@bounces.test`] });
  for (let i = 0; i < 400; i++) {
    if (await w.tdb.db('inbound_emails').where({ send_id: send.id }).whereNotNull('processed_at').first()) break;
    await new Promise((r) => setTimeout(r, 25));
  }
  expect(await w.tdb.db('sequence_sends').where({ id: send.id }).first()).toMatchObject({ bounce_type: 'block', bounce_status: '5.7.26' });
  expect((await w.tdb.db('contacts').where({ id: contact }).first())!.email_undeliverable_at).toBeNull();
  expect((await w.tdb.db('sequence_enrollments').where({ id: e.id }).first())!.status).toBe('active');
  const after = await blocks();
  expect(after.authentication.count).toBe(before.authentication.count + 1);
  expect(after.authentication.last_at).toEqual(expect.any(String));
  expect(after.reputation.count).toBe(before.reputation.count);
});

test('a 554 5.7.1 blocklist answer at send: a block, the sequence goes on, analytics count it as blocked', async () => {
  const before = await blocks();
  const { seq, contact, e, send } = await sentFirst(unique('spamblocked'));
  expect(send).toMatchObject({ status: 'bounced', bounce_type: 'block', bounce_status: '5.7.1' });
  expect((await w.tdb.db('contacts').where({ id: contact }).first())!.email_undeliverable_at).toBeNull();
  const enrollment = await w.tdb.db('sequence_enrollments').where({ id: e.id }).first();
  expect(enrollment!.exit_reason).toBeNull();
  expect((await blocks()).reputation.count).toBe(before.reputation.count + 1);
  const analytics = await w.api.get(`/api/v1/sequences/${seq.id}/analytics`);
  expect(analytics.status).toBe(200);
  expect(analytics.body.data.steps[0]).toMatchObject({ bounced: 1, blocked: 1, hard_bounced: 0, soft_bounced: 0 });
});

test('mail_blocks is read-only: a PATCH that sets it is refused with 400 in the error shape', async () => {
  const res = await w.api.patch('/api/v1/team', { mail_blocks: { reputation: { count: 0, last_at: null } } });
  expect(res.status).toBe(400);
  expect(res.body.error).toMatchObject({ code: expect.any(String), message: expect.any(String) });
  expect(Object.keys(await blocks()).sort()).toEqual(['authentication', 'content', 'policy', 'reputation']);
});
