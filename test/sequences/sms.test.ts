import twilio from 'twilio';
import { eventually } from '../helpers/smtp';
import { makeContact } from './support/factory';
import { TWILIO_TOKEN, useWorld } from './support/world';

/**
 * SMS end to end: a running sequence sends through the Twilio stand-in (the real twilio SDK),
 * Twilio's signed status callbacks feed delivered and failed, and a STOP reply unsubscribes the
 * contact and ends the enrollment before the next SMS.
 */
const w = useWorld();
const FROM = '+15550007777';

/** POST a form to our Twilio hook, signed as Twilio signs it (auth token over the full URL and params). */
function twilioPost(url: string, params: Record<string, string>) {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-twilio-signature': twilio.getExpectedTwilioSignature(TWILIO_TOKEN, url, params),
    },
    body: new URLSearchParams(params).toString(),
  });
}

async function smsSequence() {
  const step = (days: number) => ({ channel: 'sms', delay: { value: days, unit: 'days' }, body: `Day ${days}: hi {{first_name}}` });
  const res = await w.dash.post('/api/v1/sequences', {
    name: 'Texts',
    status: 'active',
    send_from_number: FROM,
    steps: [step(0), step(2)],
  });
  expect(res.status).toBe(201);
  return res.body.data as { id: string; steps: Array<{ id: string }> };
}

async function enrollWaitingForStep2(phone: string) {
  const seq = await smsSequence();
  const contact = await makeContact(w.tdb.db, w.team.teamId, { phone });
  const e = (await w.api.post(`/api/v1/sequences/${seq.id}/enrollments`, { contact_id: contact })).body.data[0] as { id: string };
  await w.waitStarted(`enrollment-${e.id}`);
  const handle = w.env.client.workflow.getHandle(`enrollment-${e.id}`);
  await eventually(async () => {
    const s = await handle.query<{ phase: string; stepId: string | null }>('state');
    return s.phase === 'waiting_delay' && s.stepId === seq.steps[1].id;
  }, 'the first SMS to be sent');
  const sent = w.twilio.messages.filter((m) => m.params.To === phone);
  expect(sent).toHaveLength(1);
  return { seq, contact, e, handle, request: sent[0] };
}

test('status callbacks at the URL we gave Twilio: delivered, then a failed one, in the analytics', async () => {
  const a = await enrollWaitingForStep2('+15550101001');
  // We asked Twilio to report to our status hook.
  expect(a.request.params.StatusCallback).toBe(`${w.app.baseUrl}/api/hooks/twilio/status`);
  const sendA = await w.tdb.db('sequence_sends').where({ enrollment_id: a.e.id }).first();
  expect(sendA!.provider_id!).toMatch(/^SM/);
  const hook = a.request.params.StatusCallback;
  for (const status of ['queued', 'sent', 'delivered']) {
    expect(
      (await twilioPost(hook, { MessageSid: sendA!.provider_id!, MessageStatus: status, AccountSid: a.request.accountSid })).status,
    ).toBe(204);
  }
  // A forged callback (not signed with our auth token) changes nothing.
  const forged = await fetch(hook, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': 'AAAA' },
    body: new URLSearchParams({ MessageSid: sendA!.provider_id!, MessageStatus: 'failed' }).toString(),
  });
  expect(forged.status).toBe(403);

  const b = await enrollWaitingForStep2('+15550101002');
  const sendB = await w.tdb.db('sequence_sends').where({ enrollment_id: b.e.id }).first();
  expect((await twilioPost(hook, { MessageSid: sendB!.provider_id!, MessageStatus: 'undelivered', ErrorCode: '30003' })).status).toBe(204);

  const rows = await w.tdb.db('sequence_sends').whereIn('id', [sendA!.id, sendB!.id]);
  const byId = Object.fromEntries(rows.map((r) => [r.id, r]));
  expect(byId[sendA!.id]).toMatchObject({ delivered_at: expect.any(Date), failed_at: null });
  expect(byId[sendB!.id]).toMatchObject({ delivered_at: null, failed_at: expect.any(Date), error: 'Twilio: undelivered (error 30003)' });
  for (const [x, expected] of [
    [a, { sent: 1, delivered: 1, failed: 0 }],
    [b, { sent: 1, delivered: 0, failed: 1 }],
  ] as const) {
    const stats = (await w.api.get(`/api/v1/sequences/${x.seq.id}/analytics`)).body.data.steps[0];
    expect(stats).toMatchObject({ channel: 'sms', ...expected });
  }
});

test('a STOP reply unsubscribes the contact from SMS and ends the enrollment: step 2 is never sent', async () => {
  const phone = '+15550101003';
  const { e, contact, handle } = await enrollWaitingForStep2(phone);
  const res = await twilioPost(`${w.app.baseUrl}/api/hooks/twilio/inbound`, {
    From: phone,
    To: FROM,
    Body: 'Stop',
    MessageSid: 'SMreply1',
  });
  expect(res.status).toBe(200);
  expect(await res.text()).toContain('<Response>');
  expect(await handle.result()).toMatchObject({ status: 'exited', reason: 'unsubscribed' });
  await w.env.sleep(3 * 86_400_000);
  expect(w.twilio.messages.filter((m) => m.params.To === phone)).toHaveLength(1);
  expect(await w.tdb.db('sequence_unsubscribes').where({ contact_id: contact })).toEqual([
    expect.objectContaining({ channel: 'sms', source: 'sms_stop' }),
  ]);
  expect((await w.tdb.db('sequence_enrollments').where({ id: e.id }).first())!.exit_reason).toBe('unsubscribed');
  // The contact's own STOP is not removed through the API without the recorded override.
  expect((await w.api.delete(`/api/v1/sequences/unsubscribes/${contact}`)).body.error.code).toBe('unsubscribed_by_contact');
});
