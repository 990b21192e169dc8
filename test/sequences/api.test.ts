import twilio from 'twilio';
import { client } from '../helpers/http';
import { makeContact } from './support/factory';
import { insertMeeting } from './support/meetings';
import { useApiWorld } from '../helpers/world';

/** The sequences API without Temporal: authoring, entry checks, bad input, unsubscribes, Twilio callbacks. */
const TOKEN = 'api-test-twilio-token';

const w = useApiWorld({ other: true, env: { TWILIO_AUTH_TOKEN: TOKEN } });

const email = {
  channel: 'email',
  delay: { value: 1, unit: 'days' },
  subject: 'Hi {{first_name}}',
  body: 'Hello {{ first_name }} {{custom.company}}',
};
const sms = { channel: 'sms', delay: { value: 2, unit: 'hours' }, body: 'Hey {{first_name}}' };

async function create(body: Record<string, unknown>) {
  const res = await w.session.post('/api/v1/sequences', { name: 'S', status: 'active', steps: [email], ...body });
  expect(res.status).toBe(201);
  return res.body.data;
}

describe('authoring', () => {
  test('dashboard sessions author; API keys get 403 dashboard_only but can read', async () => {
    const denied = await w.api.post('/api/v1/sequences', { name: 'x' });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('dashboard_only');
    const seq = await create({ name: 'Onboarding', sending_window: { days: [1, 2, 3], start: '09:00', end: '17:00' } });
    expect(seq).toMatchObject({
      name: 'Onboarding',
      status: 'active',
      steps: [{ position: 0, channel: 'email', delay: { value: 1, unit: 'days' } }],
    });
    expect((await w.api.get(`/api/v1/sequences/${seq.id}`)).body.data.steps).toHaveLength(1);
    expect((await w.api.get(`/api/v1/sequences/${seq.id}/steps`)).body.data[0].subject).toBe('Hi {{first_name}}');
    const list = await w.api.get('/api/v1/sequences?status=active&per_page=5');
    expect(list.body.meta).toMatchObject({ page: 1, per_page: 5 });
    expect(list.body.data.map((s: { id: string }) => s.id)).toContain(seq.id);
    expect((await w.api.patch(`/api/v1/sequences/${seq.id}`, { name: 'x' })).body.error.code).toBe('dashboard_only');
  });

  test('unknown placeholders are refused when the sequence is saved', async () => {
    const res = await w.session.post('/api/v1/sequences', { name: 'Bad', steps: [{ ...email, body: 'Hi {{frist_name}}' }] });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_failed');
    expect(res.body.error.details[0]).toMatchObject({ path: 'body.steps.0.body', message: expect.stringContaining('frist_name') });
    const seq = await create({ status: 'draft' });
    const patch = await w.session.patch(`/api/v1/sequences/${seq.id}`, { steps: [{ ...email, subject: '{{ nope }}' }] });
    expect(patch.status).toBe(400);
    expect(patch.body.error.details[0].path).toBe('body.steps.0.subject');
  });

  test('SMS steps need a send-from number; active needs a step; transitions are checked', async () => {
    const res = await w.session.post('/api/v1/sequences', { name: 'Txt', steps: [sms] });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe('body.send_from_number');
    expect((await w.session.post('/api/v1/sequences', { name: 'Empty', status: 'active' })).status).toBe(400);
    const seq = await create({ status: 'draft' });
    expect((await w.session.patch(`/api/v1/sequences/${seq.id}`, { status: 'paused' })).body.error.code).toBe('invalid_transition');
    expect((await w.session.patch(`/api/v1/sequences/${seq.id}`, { status: 'active' })).body.data.status).toBe('active');
    expect((await w.session.patch(`/api/v1/sequences/${seq.id}`, { status: 'paused' })).body.data.status).toBe('paused');
    expect((await w.session.delete(`/api/v1/sequences/${seq.id}`)).status).toBe(204);
    expect((await w.session.patch(`/api/v1/sequences/${seq.id}`, { status: 'active' })).status).toBe(409);
  });

  test('editing steps keeps ids of kept steps and retires the others', async () => {
    const seq = await create({ steps: [email, { ...email, subject: 'Two' }] });
    const [a] = seq.steps;
    const res = await w.session.patch(`/api/v1/sequences/${seq.id}`, {
      steps: [
        { ...email, id: a.id, subject: 'One v2' },
        { ...email, subject: 'Three' },
      ],
    });
    expect(res.status).toBe(200);
    expect(
      res.body.data.steps.map((s: { id: string; subject: string; position: number }) => [s.id === a.id, s.subject, s.position]),
    ).toEqual([
      [true, 'One v2', 0],
      [false, 'Three', 1],
    ]);
    const bad = await w.session.patch(`/api/v1/sequences/${seq.id}`, { steps: [{ ...email, id: crypto.randomUUID() }] });
    expect(bad.status).toBe(400);
  });
});

describe('enrollment entry checks', () => {
  test('each skip reason is recorded, and a skipped enrollment starts no workflow', async () => {
    await w.tdb
      .db('teams')
      .where({ id: w.team.teamId })
      .update({ settings: JSON.stringify({ sms_provider: 'twilio' }) });
    const seq = await create({ steps: [email, sms], send_from_number: '+15550001111', skip_if_meeting_booked: true });
    const ok = await makeContact(w.tdb.db, w.team.teamId, { phone: '+15550002222' });
    const unsub = await makeContact(w.tdb.db, w.team.teamId, { phone: '+15550003333' });
    await w.tdb.db('contacts').where({ id: unsub }).update({ unsubscribed_sms: true });
    const noEmail = await makeContact(w.tdb.db, w.team.teamId, { email: null, phone: '+15550004444' });
    const noPhone = await makeContact(w.tdb.db, w.team.teamId);
    const booked = await makeContact(w.tdb.db, w.team.teamId, { phone: '+15550005555' });
    const cancelledOnly = await makeContact(w.tdb.db, w.team.teamId, { phone: '+15550006666' });
    await insertMeeting(w.tdb.db, w.team.teamId, booked, 'scheduled');
    await insertMeeting(w.tdb.db, w.team.teamId, cancelledOnly, 'cancelled');
    const ids = [ok, unsub, noEmail, noPhone, booked, cancelledOnly];
    const before = Number((await w.tdb.db('outbox').count({ n: '*' }))[0].n);

    const res = await w.api.post(`/api/v1/sequences/${seq.id}/enrollments`, { contact_ids: ids });
    expect(res.status).toBe(201);
    expect(
      res.body.data.map((e: { contact_id: string; status: string; skip_reason: string | null }) => [e.contact_id, e.status, e.skip_reason]),
    ).toEqual([
      [ok, 'active', null],
      [unsub, 'skipped', 'unsubscribed'],
      [noEmail, 'skipped', 'missing_email'],
      [noPhone, 'skipped', 'missing_phone'],
      [booked, 'skipped', 'meeting_already_booked'],
      [cancelledOnly, 'active', null],
    ]);
    const starts = await w.tdb
      .db('outbox')
      .where('id', '>', 0)
      .where('workflow_type', 'sequenceEnrollmentWorkflow')
      .select('workflow_id', 'search_attributes', 'memo');
    const started = starts.slice(before).map((r) => r.workflow_id);
    expect(started.sort()).toEqual(
      res.body.data
        .filter((e: { status: string }) => e.status === 'active')
        .map((e: { id: string }) => `enrollment-${e.id}`)
        .sort(),
    );
    const okStart = starts.find((r) => r.workflow_id === `enrollment-${res.body.data[0].id}`)!;
    expect(okStart.search_attributes).toEqual({
      TeamId: w.team.teamId,
      SequenceId: seq.id,
      ContactId: ok,
      EnrollmentStatus: 'active',
      ContactEmailKey: expect.stringMatching(/^[0-9a-f]{32}$/), // keyed, never the address (docs/operators.md)
    });
    expect(okStart.memo).toEqual({ sequence_name: 'S', contact_email: expect.stringContaining('@example.com') });

    const again = await w.api.post(`/api/v1/sequences/${seq.id}/enrollments`, { contact_id: ok });
    expect(again.body.data[0]).toMatchObject({ status: 'skipped', skip_reason: 'already_enrolled' });

    const listed = await w.api.get(`/api/v1/sequences/${seq.id}/enrollments?status=skipped&per_page=100`);
    expect(listed.body.meta.total).toBe(5);
  });

  test('sms_not_configured without the team SMS provider, sequence_not_active for drafts and paused ones', async () => {
    await w.tdb
      .db('teams')
      .where({ id: w.team.teamId })
      .update({ settings: JSON.stringify({}) });
    const seq = await create({ steps: [sms], send_from_number: '+15550001111' });
    const c = await makeContact(w.tdb.db, w.team.teamId, { phone: '+15550007777' });
    expect((await w.api.post(`/api/v1/sequences/${seq.id}/enrollments`, { contact_id: c })).body.data[0].skip_reason).toBe(
      'sms_not_configured',
    );
    const draft = await create({ status: 'draft' });
    expect((await w.api.post(`/api/v1/sequences/${draft.id}/enrollments`, { contact_id: c })).body.data[0].skip_reason).toBe(
      'sequence_not_active',
    );
  });

  test('enroll by email creates the contact', async () => {
    const seq = await create({});
    const res = await w.api.post(`/api/v1/sequences/${seq.id}/enrollments`, { email: 'New.Person@Example.com', first_name: 'New' });
    expect(res.status).toBe(201);
    const contact = await w.tdb.db('contacts').where({ id: res.body.data[0].contact_id }).first();
    expect(contact).toMatchObject({ team_id: w.team.teamId, first_name: 'New' });
  });

  test('bad input: another team, a deleted contact, an archived sequence, over 1,000, mixed forms', async () => {
    const seq = await create({});
    const foreign = await makeContact(w.tdb.db, w.other.teamId);
    const r1 = await w.api.post(`/api/v1/sequences/${seq.id}/enrollments`, {
      contact_ids: [await makeContact(w.tdb.db, w.team.teamId), foreign],
    });
    expect(r1.status).toBe(404);
    expect(r1.body.error.details).toEqual([{ path: 'body.contact_ids.1', message: 'no such contact' }]);
    const deleted = await makeContact(w.tdb.db, w.team.teamId);
    await w.tdb.db('contacts').where({ id: deleted }).update({ deleted_at: new Date() });
    expect((await w.api.post(`/api/v1/sequences/${seq.id}/enrollments`, { contact_id: deleted })).status).toBe(404);
    const over = Array.from({ length: 1001 }, () => crypto.randomUUID());
    const r2 = await w.api.post(`/api/v1/sequences/${seq.id}/enrollments`, { contact_ids: over });
    expect(r2.status).toBe(400);
    expect(r2.body.error.code).toBe('validation_failed');
    expect((await w.api.post(`/api/v1/sequences/${seq.id}/enrollments`, { contact_id: foreign, email: 'a@b.co' })).status).toBe(400);
    expect(
      (
        await w.other
          .keyWith(['sequences:write'])
          .then((k) => client(w.app.baseUrl, k).post(`/api/v1/sequences/${seq.id}/enrollments`, { contact_id: foreign }))
      ).status,
    ).toBe(404);
    await w.session.delete(`/api/v1/sequences/${seq.id}`);
    const r3 = await w.api.post(`/api/v1/sequences/${seq.id}/enrollments`, { contact_id: await makeContact(w.tdb.db, w.team.teamId) });
    expect(r3.status).toBe(409);
  });

  test('a bulk request of 1,000 contacts answers one enrollment per contact', async () => {
    const seq = await create({});
    const rows = Array.from({ length: 1000 }, (_, i) => ({ team_id: w.team.teamId, email: `bulk-${i}@example.com` }));
    const ids: string[] = (await w.tdb.db('contacts').insert(rows).returning('id')).map((r: { id: string }) => r.id);
    const res = await w.api.post(`/api/v1/sequences/${seq.id}/enrollments`, { contact_ids: ids });
    expect(res.status).toBe(201);
    expect(res.body.data).toHaveLength(1000);
    expect(res.body.data.every((e: { status: string }) => e.status === 'active')).toBe(true);
    expect(res.body.data.map((e: { contact_id: string }) => e.contact_id)).toEqual(ids);
  });
});

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
      const [e] = await w.tdb
        .db('sequence_enrollments')
        .insert({ team_id: w.team.teamId, sequence_id: seq.id, contact_id: c, status: 'active' })
        .returning('id');
      sends.push(
        await w.tdb.db('sequence_sends').insert({
          team_id: w.team.teamId,
          sequence_id: seq.id,
          enrollment_id: e.id,
          step_id: seq.steps[0].id,
          contact_id: c,
          position: 0,
          channel: 'sms',
          status: 'sent',
          token: `tok-fail-test-${i}-xxxx`,
          provider_id: sid,
        }),
      );
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
    const [e] = await w.tdb
      .db('sequence_enrollments')
      .insert({ team_id: w.team.teamId, sequence_id: seq.id, contact_id: c, status: 'active' })
      .returning('id');
    await w.tdb.db('sequence_sends').insert({
      team_id: w.team.teamId,
      sequence_id: seq.id,
      enrollment_id: e.id,
      step_id: seq.steps[0].id,
      contact_id: c,
      position: 0,
      channel: 'sms',
      status: 'sent',
      token: 'tok-status-test-1',
      provider_id: 'SMabc',
    });
    expect((await post('/api/hooks/twilio/status', { MessageSid: 'SMabc', MessageStatus: 'delivered' })).status).toBe(204);
    const stats = (await w.api.get(`/api/v1/sequences/${seq.id}/analytics`)).body.data;
    expect(stats.steps[0]).toMatchObject({ channel: 'sms', sent: 1, delivered: 1, failed: 0 });
    expect(stats).toMatchObject({ enrolled: 1, active: 1 });
  });
});
