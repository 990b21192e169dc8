import { makeContact } from './support/factory';
import { useWorld } from './support/world';

/**
 * Outbound mail tells the truth: each message carries a stable Message-ID, a VERP return path and
 * a Reply-To with its token; a real SMTP server's 5xx at RCPT is a hard bounce, its 4xx is
 * retried with backoff and then becomes a soft bounce.
 */
const attempts = new Map<string, number>();
const w = useWorld({
  appEnv: { MAIL_BOUNCE_DOMAIN: 'bounces.test', MAIL_REPLY_DOMAIN: 'reply.test', MAIL_SOFT_BOUNCE_ATTEMPTS: '3' },
  rcptReply(address) {
    const n = (attempts.get(address) ?? 0) + 1;
    attempts.set(address, n);
    if (address.startsWith('gone')) return { code: 550, message: '5.1.1 <gone> User unknown' };
    if (address.startsWith('busy') && n <= 2) return { code: 451, message: '4.7.1 Greylisted, try again later' };
    if (address.startsWith('full')) return { code: 452, message: '4.2.2 Mailbox full' };
    return null;
  },
});

async function sequence(steps: number) {
  const step = (i: number) => ({ channel: 'email', delay: { value: i, unit: 'days' }, subject: `Step ${i}`, body: '<p>Hi</p>' });
  const res = await w.dash.post('/api/v1/sequences', { name: 'Mail', status: 'active', steps: [...Array(steps).keys()].map(step) });
  expect(res.status).toBe(201);
  return res.body.data as { id: string };
}

async function enroll(sequenceId: string, contactId: string) {
  const res = await w.api.post(`/api/v1/sequences/${sequenceId}/enrollments`, { contact_id: contactId });
  expect(res.status).toBe(201);
  return res.body.data[0] as { id: string; status: string; skip_reason: string | null };
}

const unique = (local: string) => `${local}-${Math.random().toString(36).slice(2, 8)}@example.com`;

test('each message: stable Message-ID, VERP return path and Reply-To carrying its token', async () => {
  const seq = await sequence(1);
  const email = unique('ok');
  const e = await enroll(seq.id, await makeContact(w.tdb.db, w.team.teamId, { email }));
  expect(await w.result(e.id)).toMatchObject({ status: 'completed', sent: 1 });
  const send = await w.tdb.db('sequence_sends').where({ enrollment_id: e.id }).first();
  expect(send!.token).toMatch(/^[0-9a-f]{32}$/);
  const mail = w.smtp.messages.find((m) => m.to === email)!;
  expect(mail.from).toBe(`bounce+${send!.token}@bounces.test`);
  expect(mail.parsed.replyTo?.value?.[0].address).toBe(`reply+${send!.token}@reply.test`);
  expect(mail.parsed.messageId).toBe(send!.message_id);
  expect(send!.message_id).toBe(`<seq.${e.id}.${send!.step_id}@reply.test>`);
  expect(send!.accepted_at).toBeInstanceOf(Date);
  expect(send!.delivered_at).toBeNull(); // accepted is not delivered
});

test('550 at RCPT: hard bounce, exit email_bounced, address undeliverable, later enrollments skipped', async () => {
  const seq = await sequence(2);
  const email = unique('gone');
  const contact = await makeContact(w.tdb.db, w.team.teamId, { email });
  const e = await enroll(seq.id, contact);
  expect(await w.result(e.id)).toEqual({ status: 'exited', reason: 'email_bounced', sent: 0 });
  expect(attempts.get(email)).toBe(1); // never retried
  const send = await w.tdb.db('sequence_sends').where({ enrollment_id: e.id }).first();
  expect(send).toMatchObject({ status: 'bounced', bounce_type: 'hard', bounce_status: '5.1.1' });
  expect(send!.bounce_detail).toContain('User unknown');
  const c = await w.tdb.db('contacts').where({ id: contact }).first();
  expect(c!.email_undeliverable_at).toBeInstanceOf(Date);
  const detail = await w.api.get(`/api/v1/contacts/${contact}`);
  expect(detail.body.data.enrollments[0]).toMatchObject({ exit_reason: 'email_bounced', exit_reason_label: 'Email bounced' });
  const again = await enroll((await sequence(1)).id, contact);
  expect(again).toMatchObject({ status: 'skipped', skip_reason: 'email_undeliverable' });
});

test('451 twice then accepted: retried with backoff, then sent with the same Message-ID', async () => {
  const seq = await sequence(1);
  const email = unique('busy');
  const e = await enroll(seq.id, await makeContact(w.tdb.db, w.team.teamId, { email }));
  expect(await w.result(e.id)).toEqual({ status: 'completed', reason: 'completed', sent: 1 });
  expect(w.smtp.rcpts.filter((r) => r.address === email).map((r) => r.code)).toEqual([451, 451, 250]);
  const send = await w.tdb.db('sequence_sends').where({ enrollment_id: e.id }).first();
  expect(send).toMatchObject({ status: 'sent', bounce_type: null });
  expect(w.smtp.messages.filter((m) => m.to === email).map((m) => m.parsed.messageId)).toEqual([send!.message_id]);
});

test('4xx on every attempt: a soft bounce after MAIL_SOFT_BOUNCE_ATTEMPTS; the sequence goes on', async () => {
  const seq = await sequence(1);
  const email = unique('full');
  const contact = await makeContact(w.tdb.db, w.team.teamId, { email });
  const e = await enroll(seq.id, contact);
  expect(await w.result(e.id)).toEqual({ status: 'completed', reason: 'completed', sent: 0 });
  expect(w.smtp.rcpts.filter((r) => r.address === email).map((r) => r.code)).toEqual([452, 452, 452]);
  const send = await w.tdb.db('sequence_sends').where({ enrollment_id: e.id }).first();
  expect(send).toMatchObject({ status: 'bounced', bounce_type: 'soft', bounce_status: '4.2.2' });
  expect((await w.tdb.db('contacts').where({ id: contact }).first())!.email_undeliverable_at).toBeNull();
});
