import { emailKeyer } from '../../services/operators/email-key';
import { alwaysAvailable, bookHoursAhead } from '../scheduling/helpers';
import { useWorld } from '../sequences/support/world';
import { startReceiver } from '../webhooks/receiver';
import { eventuallyDetails, readMetadata, waitStarted } from './support';

/**
 * Each workflow type's summary, details (describe() user metadata) and current details (the
 * `__temporal_workflow_metadata` query), started the way the service starts it (through the API
 * and the outbox), on the time-skipping test server with a worker running the real activities.
 */
const w = useWorld();
const iso = '\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d(:\\d\\d)?Z';

/** The id of the one workflow of this type the outbox started (the time-skipping server has no visibility queries). */
async function startedId(workflowType: string): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const row = await w.tdb.db('outbox').where({ workflow_type: workflowType }).whereNotNull('started_at').first('workflow_id');
    if (row) return row.workflow_id;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no ${workflowType} was started`);
}

async function sequence(name: string, delay: { value: number; unit: string }) {
  const res = await w.dash.post('/api/v1/sequences', {
    name,
    status: 'active',
    steps: [{ channel: 'email', delay, subject: 'Follow up', body: 'Hello' }],
  });
  expect(res.status).toBe(201);
  return res.body.data as { id: string };
}

test('enrollment: names the sequence and the contact; waits for its step until a due time; keyed email attribute', async () => {
  const seq = await sequence('Onboarding', { value: 2, unit: 'days' });
  const res = await w.api.post(`/api/v1/sequences/${seq.id}/enrollments`, { email: 'ada@example.com' });
  expect(res.status).toBe(201);
  const e = res.body.data[0];
  const id = `enrollment-${e.id}`;
  await waitStarted(w.env, id);
  const m = await eventuallyDetails(w.env, id, /^waiting for/);
  expect(m.summary).toBe('Onboarding → ada@example.com (1 step)');
  expect(m.details).toContain(`\`/api/v1/sequences/${seq.id}/enrollments/${e.id}\``);
  expect(m.details).toContain(`\`/api/v1/contacts/${e.contact_id}\``);
  expect(m.details).toContain(w.team.teamId);
  expect(m.current).toMatch(new RegExp(`^waiting for step 1 \\(email 'Follow up'\\), due ${iso} \\(step delay\\)$`));
  const keyOf = await emailKeyer(w.tdb);
  expect(m.searchAttributes.ContactEmailKey).toEqual([keyOf(' ada@example.COM ')]);
  expect(m.searchAttributes.ContactEmailKey).not.toContain('ada@example.com');

  // Unenrolling: the signals workflow says what it delivers; the enrollment says how it ended.
  expect((await w.api.delete(`/api/v1/sequences/${seq.id}/enrollments/${e.id}`)).status).toBe(204);
  expect(await w.result(e.id)).toMatchObject({ status: 'exited' });
  const ended = await readMetadata(w.env, id);
  expect(ended.current).toMatch(new RegExp(`^exited: unenrolled at ${iso} \\(0 sent\\)$`));
  const signals = await startedId('sequenceSignalsWorkflow');
  await w.env.client.workflow.getHandle(signals).result();
  const s = await readMetadata(w.env, signals);
  expect(s.summary).toBe('Signal exit (unenrolled) to 1 enrollment(s)');
  expect(s.current).toBe('signalling exit to 1 enrollment(s)');
});

test('booking: names the meeting, the attendee and the start; waits for the 24 h reminder; meeting start attribute', async () => {
  await alwaysAvailable(w.tdb.db, w.team.userId);
  const { res, startMs } = await bookHoursAhead(w.app.baseUrl, w.team, { hoursAhead: 72, attendeeEmail: 'grace@example.com' });
  expect(res.status).toBe(201);
  const meetingId: string = res.body.meeting.id;
  const id = `booking-${meetingId}`;
  await waitStarted(w.env, id);
  const m = await eventuallyDetails(w.env, id, /reminder/);
  const start = new Date(startMs);
  const hhmm = `${String(start.getUTCHours()).padStart(2, '0')}:00`;
  expect(m.summary).toMatch(new RegExp(`^Intro call.* \\(grace@example\\.com\\), ${start.getUTCDate()} \\w{3} ${hhmm} UTC$`));
  expect(m.details).toContain(`\`/api/v1/meetings/${meetingId}\``);
  expect(m.current).toBe(
    `booking: reminder 24 h before, due ${new Date(startMs - 86_400_000).toISOString().replace(':00.000Z', 'Z')} (meeting at ${start.toISOString().replace(':00.000Z', 'Z')})`,
  );
  expect((m.searchAttributes.MeetingStart as Date[])[0].getTime()).toBe(startMs);
  expect(m.searchAttributes.MeetingStatus).toEqual(['scheduled']);
  const keyOf = await emailKeyer(w.tdb);
  expect(m.searchAttributes.ContactEmailKey).toEqual([keyOf('grace@example.com')]);
});

test('webhook delivery: names the event and the endpoint; a failed attempt says when the next one is', async () => {
  const receiver = await startReceiver((_r, _i, res) => {
    res.statusCode = 503;
    res.end('down');
  });
  try {
    const sub = await w.api.post('/api/v1/webhooks', { url: receiver.url, events: ['submission.created'] });
    expect(sub.status).toBe(201);
    const subId: string = sub.body.data.id;
    expect((await w.api.post(`/api/v1/webhooks/${subId}/test`, {})).status).toBeLessThan(300);
    const m = await eventuallyDetails(w.env, await startedId('webhookDeliveryWorkflow'), /failed/);
    expect(m.summary).toBe(`Webhook webhook.test → http://127.0.0.1:${new URL(receiver.url).port}/hook`);
    expect(m.details).toContain(`\`/api/v1/webhooks/${subId}/deliveries\``);
    expect(m.current).toMatch(new RegExp(`^webhook: attempt 1 of 8 failed \\(HTTP 503\\), next at ${iso}$`));
    expect(m.searchAttributes.WebhookHost).toEqual(['127.0.0.1']);
  } finally {
    await receiver.close();
  }
});

test('invitation: names the invitation, not the invitee; waits for the reminder', async () => {
  const res = await w.dash.post('/api/v1/team/invitations', { email: 'newcomer@example.com', role: 'member' });
  expect(res.status).toBe(201);
  const invitationId: string = res.body.data.id;
  const m = await eventuallyDetails(w.env, await startedId('invitationWorkflow'), /reminder due/);
  expect(m.summary).toBe(`Team invitation ${invitationId}, send 1`);
  expect(m.summary).not.toContain('newcomer');
  expect(m.current).toMatch(new RegExp(`^invitation: sent; reminder due ${iso.replace('Z', '')}\\.\\d{3}Z unless accepted or revoked$`));
});
