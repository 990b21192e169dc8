import { client } from '../helpers/http';
import { makeContact } from './support/factory';
import { insertMeeting } from './support/meetings';
import { email, sms, useSequencesApi } from './support/api-world';

/** The sequences API without Temporal: authoring, and the entry checks of enrollment (skip reasons, bad input, bulk). */
const { w, create } = useSequencesApi();

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
