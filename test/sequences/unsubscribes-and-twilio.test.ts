import twilio from 'twilio';
import { makeContact } from './support/factory';
import { TOKEN, sms, useSequencesApi } from './support/api-world';

/** The sequences API without Temporal: unsubscribes, and the Twilio callbacks (signature checked: STOP/START, delivery status). */
const { w, create } = useSequencesApi();

describe('unsubscribes', () => {
  test('add by id and email, list, remove', async () => {
    const c = await makeContact(w.tdb.db, w.team.teamId);
    const add = await w.api.post('/api/v1/sequences/unsubscribes', { contact_ids: [c], channel: 'all' });
    expect(add.status).toBe(201);
    expect(add.body.data.map((u: { channel: string }) => u.channel).sort()).toEqual(['email', 'sms']);
    const byEmail = await w.api.post('/api/v1/sequences/unsubscribes', { emails: ['gone@example.com'], channel: 'email' });
    expect(byEmail.body.data).toEqual([expect.objectContaining({ email: 'gone@example.com', channel: 'email', source: 'api' })]);
    const list = await w.api.get('/api/v1/sequences/unsubscribes?channel=email');
    expect(list.body.data.map((u: { contact_id: string }) => u.contact_id)).toContain(c);
    expect((await w.api.delete(`/api/v1/sequences/unsubscribes/${c}`)).status).toBe(204);
    expect(await w.tdb.db('contacts').where({ id: c }).first('unsubscribed_email', 'unsubscribed_sms')).toEqual({
      unsubscribed_email: false,
      unsubscribed_sms: false,
    });
    expect(
      (await w.api.post('/api/v1/sequences/unsubscribes', { contact_ids: [await makeContact(w.tdb.db, w.other.teamId)] })).status,
    ).toBe(404);
    expect((await w.api.post('/api/v1/sequences/unsubscribes', { channel: 'email' })).status).toBe(400);
  });

  test.each(['sms_stop', 'one_click', 'complaint', 'provider'])(
    'an unsubscribe the contact made (%s) is removed only with the override, which is recorded',
    async (source) => {
      const c = await makeContact(w.tdb.db, w.team.teamId);
      const channel = source === 'sms_stop' ? 'sms' : 'email';
      await w.tdb.db('sequence_unsubscribes').insert({ team_id: w.team.teamId, contact_id: c, channel, source });
      await w.tdb
        .db('contacts')
        .where({ id: c })
        .update({ [`unsubscribed_${channel}`]: true });
      const refused = await w.api.delete(`/api/v1/sequences/unsubscribes/${c}`);
      expect(refused.status).toBe(409);
      expect(refused.body.error.code).toBe('unsubscribed_by_contact');
      expect(refused.body.error.message).toContain(`${channel} (${source})`);
      expect(await w.tdb.db('sequence_unsubscribes').where({ contact_id: c })).toHaveLength(1);
      expect((await w.api.delete(`/api/v1/sequences/unsubscribes/${c}?override_contact_unsubscribe=false`)).status).toBe(409);
      expect(await w.tdb.db('unsubscribe_overrides').where({ contact_id: c })).toHaveLength(0);

      const ok = await w.api.delete(
        `/api/v1/sequences/unsubscribes/${c}?override_contact_unsubscribe=true&reason=${encodeURIComponent('asked by phone')}`,
      );
      expect(ok.status).toBe(204);
      expect(await w.tdb.db('sequence_unsubscribes').where({ contact_id: c })).toHaveLength(0);
      expect((await w.tdb.db('contacts').where({ id: c }).first())![`unsubscribed_${channel}`]).toBe(false);
      const [audit] = await w.tdb.db('unsubscribe_overrides').where({ contact_id: c });
      expect(audit).toMatchObject({
        team_id: w.team.teamId,
        actor_kind: 'api_key',
        actor_user_id: w.team.userId,
        reason: 'asked by phone',
        removed: [expect.objectContaining({ channel, source })],
      });
      expect(audit.actor_credential_id).toEqual(expect.any(String));
      expect(audit.created_at).toBeInstanceOf(Date);
    },
  );

  test('an unsubscribe made through the API is removed without the override, and nothing is recorded', async () => {
    const c = await makeContact(w.tdb.db, w.team.teamId);
    await w.api.post('/api/v1/sequences/unsubscribes', { contact_ids: [c], channel: 'email' });
    expect((await w.api.delete(`/api/v1/sequences/unsubscribes/${c}`)).status).toBe(204);
    expect(await w.tdb.db('unsubscribe_overrides').where({ contact_id: c })).toHaveLength(0);
    expect((await w.api.delete(`/api/v1/sequences/unsubscribes/${c}?override_contact_unsubscribe=maybe`)).status).toBe(400);
  });
});

/** An active enrollment of `contact` in `seq`, and its first step sent by SMS as Twilio message `sid`. */
async function sentSms(seq: { id: string; steps: Array<{ id: string }> }, contact: string, token: string, sid: string) {
  const [e] = await w.tdb
    .db('sequence_enrollments')
    .insert({ team_id: w.team.teamId, sequence_id: seq.id, contact_id: contact, status: 'active' })
    .returning('id');
  return w.tdb.db('sequence_sends').insert({
    team_id: w.team.teamId,
    sequence_id: seq.id,
    enrollment_id: e.id,
    step_id: seq.steps[0].id,
    contact_id: contact,
    position: 0,
    channel: 'sms',
    status: 'sent',
    token,
    provider_id: sid,
  });
}

describe('Twilio callbacks (signature checked)', () => {
  const form = (p: Record<string, string>) => new URLSearchParams(p).toString();
  const post = (path: string, params: Record<string, string>, signature?: string) =>
    fetch(`${w.app.baseUrl}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': signature ?? twilio.getExpectedTwilioSignature(TOKEN, `${w.app.baseUrl}${path}`, params),
      },
      body: form(params),
    });

  test('an inbound STOP unsubscribes the sender from SMS; a bad signature gets 403', async () => {
    const seq = await create({ steps: [sms], send_from_number: '+15558880000' });
    const c = await makeContact(w.tdb.db, w.team.teamId, { phone: '+15558881111' });
    const params = { From: '+15558881111', To: '+15558880000', Body: ' stop ', MessageSid: 'SMin1' };
    expect((await post('/api/hooks/twilio/inbound', params, 'bogus')).status).toBe(403);
    expect((await w.tdb.db('contacts').where({ id: c }).first())!.unsubscribed_sms).toBe(false);
    const res = await post('/api/hooks/twilio/inbound', params);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<Response>');
    expect((await w.tdb.db('contacts').where({ id: c }).first())!.unsubscribed_sms).toBe(true);
    expect(seq.id).toBeDefined();
  });

  test('STOP as Advanced Opt-Out sends it (OptOutType), and START undoes only the STOP', async () => {
    await create({ steps: [sms], send_from_number: '+15558880001' });
    const c = await makeContact(w.tdb.db, w.team.teamId, { phone: '+15558883333' });
    const base = { From: '+15558883333', To: '+15558880001', MessageSid: 'SMin2' };
    expect((await post('/api/hooks/twilio/inbound', { ...base, Body: 'Stop please', OptOutType: 'STOP' })).status).toBe(200);
    expect(await w.tdb.db('sequence_unsubscribes').where({ contact_id: c }).first()).toMatchObject({ channel: 'sms', source: 'sms_stop' });
    expect((await post('/api/hooks/twilio/inbound', { ...base, Body: 'hello' })).status).toBe(200);
    expect((await w.tdb.db('contacts').where({ id: c }).first())!.unsubscribed_sms).toBe(true);
    expect((await post('/api/hooks/twilio/inbound', { ...base, Body: 'START' })).status).toBe(200);
    expect((await w.tdb.db('contacts').where({ id: c }).first())!.unsubscribed_sms).toBe(false);
    expect(await w.tdb.db('sequence_unsubscribes').where({ contact_id: c })).toHaveLength(0);
    // An SMS unsubscribe made through the API is not undone by the contact's START.
    await w.api.post('/api/v1/sequences/unsubscribes', { contact_ids: [c], channel: 'sms' });
    expect((await post('/api/hooks/twilio/inbound', { ...base, Body: 'unstop' })).status).toBe(200);
    expect((await w.tdb.db('contacts').where({ id: c }).first())!.unsubscribed_sms).toBe(true);
  });

  test("failed and undelivered status callbacks count as failed, with Twilio's error code", async () => {
    const seq = await create({ steps: [sms], send_from_number: '+15558880000' });
    const sends = [];
    for (const [i, sid] of ['SMfail1', 'SMfail2', 'SMok3'].entries()) {
      const c = await makeContact(w.tdb.db, w.team.teamId, { phone: `+1555887000${i}` });
      sends.push(await sentSms(seq, c, `tok-fail-test-${i}-xxxx`, sid));
    }
    expect((await post('/api/hooks/twilio/status', { MessageSid: 'SMfail1', MessageStatus: 'failed', ErrorCode: '30003' })).status).toBe(
      204,
    );
    expect(
      (await post('/api/hooks/twilio/status', { MessageSid: 'SMfail2', MessageStatus: 'undelivered', ErrorCode: '30007' })).status,
    ).toBe(204);
    expect((await post('/api/hooks/twilio/status', { MessageSid: 'SMok3', MessageStatus: 'sent' })).status).toBe(204);
    expect((await post('/api/hooks/twilio/status', { MessageSid: 'SMok3', MessageStatus: 'delivered' })).status).toBe(204);
    const rows = await w.tdb.db('sequence_sends').whereIn('provider_id', ['SMfail1', 'SMfail2']).orderBy('provider_id');
    expect(rows.map((r) => r.error)).toEqual(['Twilio: failed (error 30003)', 'Twilio: undelivered (error 30007)']);
    expect(rows.every((r) => r.failed_at instanceof Date && r.delivered_at === null)).toBe(true);
    const stats = (await w.api.get(`/api/v1/sequences/${seq.id}/analytics`)).body.data;
    expect(stats.steps[0]).toMatchObject({ sent: 3, delivered: 1, failed: 2 });
    expect(sends).toHaveLength(3);
  });

  test('a delivered status callback counts as delivered', async () => {
    const seq = await create({ steps: [sms], send_from_number: '+15558880000' });
    const c = await makeContact(w.tdb.db, w.team.teamId, { phone: '+15558882222' });
    await sentSms(seq, c, 'tok-status-test-1', 'SMabc');
    expect((await post('/api/hooks/twilio/status', { MessageSid: 'SMabc', MessageStatus: 'delivered' })).status).toBe(204);
    const stats = (await w.api.get(`/api/v1/sequences/${seq.id}/analytics`)).body.data;
    expect(stats.steps[0]).toMatchObject({ channel: 'sms', sent: 1, delivered: 1, failed: 0 });
    expect(stats).toMatchObject({ enrolled: 1, active: 1 });
  });
});
