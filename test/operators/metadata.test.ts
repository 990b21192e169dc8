import { emailKeyer } from '../../services/operators/email-key';
import { alwaysAvailable, bookHoursAhead } from '../scheduling/helpers';
import { useWorld } from '../sequences/support/world';
import { deadUrl, startReceiver } from '../webhooks/receiver';
import { storeInbound } from '../../inbound/smtp-listener';
import { transactionWithOutbox } from '../../temporal/outbox';
import { completeAppInput } from '../oauth/helpers';
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

test('meeting cleanup: a cancelled booking ends, says so, and its cleanup names the meeting', async () => {
  await alwaysAvailable(w.tdb.db, w.team.userId);
  const { res, startMs } = await bookHoursAhead(w.app.baseUrl, w.team, { hoursAhead: 96, attendeeEmail: 'linus@example.com' });
  expect(res.status).toBe(201);
  const meetingId: string = res.body.meeting.id;
  await waitStarted(w.env, `booking-${meetingId}`);
  expect((await w.api.patch(`/api/v1/meetings/${meetingId}`, { status: 'cancelled' })).status).toBe(200);
  await waitStarted(w.env, `meeting-cleanup-${meetingId}`);
  await w.env.client.workflow.getHandle(`meeting-cleanup-${meetingId}`).result();
  const c = await readMetadata(w.env, `meeting-cleanup-${meetingId}`);
  expect(c.summary).toMatch(new RegExp(`^Cleanup of Intro call.*, ${new Date(startMs).getUTCDate()} \\w{3} \\d\\d:00 UTC$`));
  expect(c.details).toContain(`\`/api/v1/meetings/${meetingId}\``);
  expect(c.current).toMatch(/^cleanup: /);
  expect(await w.env.client.workflow.getHandle(`booking-${meetingId}`).result()).toBe('cancelled');
  const b = await readMetadata(w.env, `booking-${meetingId}`);
  expect(b.current).toMatch(new RegExp(`^booking: ended: cancelled at ${iso}$`));
});

test('calendar sync: names the connection; a failing server shows in current details and ConnectionStatus', async () => {
  const url = await deadUrl();
  const res = await w.dash.post('/api/v1/calendar-connections', {
    kind: 'caldav',
    name: 'Work',
    server_url: url,
    username: 'ada',
    password: 'pw',
  });
  expect(res.status).toBe(201);
  const id = `calendar-sync-${res.body.data.id}`;
  await waitStarted(w.env, id);
  const m = await eventuallyDetails(w.env, id, /last sync failed/);
  expect(m.summary).toBe(`Calendar sync: Work (caldav, ${new URL(url).host})`);
  expect(m.summary).not.toContain('ada');
  expect(m.details).toContain(`\`POST /api/v1/calendar-connections/${res.body.data.id}/sync\``);
  expect(m.current).toMatch(new RegExp(`^calendar sync: last sync failed: .+; next at ${iso} \\(or on sync now\\)$`));
  expect((await w.env.client.workflow.getHandle(id).describe()).searchAttributes.ConnectionStatus).toEqual(['error']);
  expect((await w.dash.delete(`/api/v1/calendar-connections/${res.body.data.id}`)).status).toBe(204);
});

test('inbound email: names the stored message, not its sender', async () => {
  const raw = Buffer.from('From: someone@example.org\r\nTo: r@reply.example.com\r\nSubject: hi\r\n\r\nhello\r\n');
  const inboundId = await storeInbound(w.app.deps, {
    raw,
    mailFrom: 'someone@example.org',
    recipients: ['r@reply.example.com'],
    remoteIp: '127.0.0.1',
  });
  const id = `inbound-email-${inboundId}`;
  await waitStarted(w.env, id);
  await w.env.client.workflow.getHandle(id).result();
  const m = await readMetadata(w.env, id);
  expect(m.summary).toBe(`Classify inbound email ${inboundId} (${raw.length} bytes)`);
  expect(m.summary).not.toContain('someone');
  expect(m.current).toMatch(/^classifying the stored message/);
});

test('ping: current details without a summary (a diagnostic started without one)', async () => {
  await transactionWithOutbox(w.tdb.db, w.app.deps.outbox, async (_trx, enqueue) => {
    await enqueue({ workflowType: 'pingWorkflow', workflowId: 'ping-operators', args: ['x'] });
  });
  await waitStarted(w.env, 'ping-operators');
  expect(await w.env.client.workflow.getHandle('ping-operators').result()).toBe('pong:x');
  const m = await readMetadata(w.env, 'ping-operators');
  expect(m.summary).toBeUndefined();
  expect(m.current).toBe('ping: running the ping activity');
});

test('a booking request: waits for the host until its lapse; confirmed, its MeetingStatus becomes scheduled', async () => {
  await alwaysAvailable(w.tdb.db, w.team.userId);
  const { res } = await bookHoursAhead(w.app.baseUrl, w.team, {
    hoursAhead: 120,
    attendeeEmail: 'barbara@example.com',
    eventType: { requires_confirmation: true },
  });
  expect(res.status).toBe(201);
  const meetingId: string = res.body.meeting.id;
  const id = `booking-${meetingId}`;
  await waitStarted(w.env, id);
  const pending = await eventuallyDetails(w.env, id, /confirmation until/);
  expect(pending.summary).toMatch(/\(barbara@example\.com\), .*, to confirm$/);
  expect(pending.current).toMatch(
    new RegExp(`^booking: waiting for the host's confirmation until ${iso}; then cancelled as not confirmed$`),
  );
  expect(pending.searchAttributes.MeetingStatus).toEqual(['pending_confirmation']);

  expect((await w.api.patch(`/api/v1/meetings/${meetingId}`, { status: 'scheduled' })).status).toBe(200);
  const confirmed = await eventuallyDetails(w.env, id, /reminder 24 h before/);
  expect(confirmed.searchAttributes.MeetingStatus).toEqual(['scheduled']);
});

test('form notification and password reset: name ids, never the addresses', async () => {
  const form = await w.api.post('/api/v1/forms', {
    title: 'Contact us',
    status: 'published',
    fields: [{ type: 'email', label: 'Email', name: 'email', required: true }],
    settings: { notify_emails: ['owner@example.com'] },
  });
  expect(form.status).toBe(201);
  const sent = await fetch(`${w.app.baseUrl}/api/forms/${form.body.data.slug}/submissions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ fields: { email: 'visitor@example.com' } }),
  });
  expect(sent.status).toBe(201);
  const submissionId = ((await sent.json()) as { data: { id: string } }).data.id;
  const notify = `form-notify-${submissionId}`;
  await waitStarted(w.env, notify);
  await w.env.client.workflow.getHandle(notify).result();
  const n = await readMetadata(w.env, notify);
  expect(n.summary).toBe(`Submission notification for submission ${submissionId} (1 address(es))`);
  expect(`${n.summary} ${n.details}`).not.toMatch(/owner@|visitor@/);
  expect(n.current).toMatch(/^sending the submission notification/);

  const user = (await w.app.deps.db('users').where({ id: w.team.userId }).first('email'))!;
  expect(
    (
      await fetch(`${w.app.baseUrl}/api/auth/password-reset`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: user.email }),
      })
    ).status,
  ).toBe(202);
  const reset = await startedId('accountEmailWorkflow');
  await w.env.client.workflow.getHandle(reset).result();
  const r = await readMetadata(w.env, reset);
  expect(r.summary).toBe(`Password reset email for user ${w.team.userId}`);
  expect(r.current).toBe('sending the password reset email');
});

test('app review: names the app and the round; says whose decision it waits for', async () => {
  const created = await w.dash.post('/api/v1/apps', completeAppInput({ name: 'Acme CRM' }));
  expect(created.status).toBe(201);
  const appId: string = created.body.data.id;
  expect((await w.dash.post(`/api/v1/apps/${appId}/submit`)).status).toBe(200);
  const id = `app-review-${appId}`;
  await waitStarted(w.env, id);
  const m = await eventuallyDetails(w.env, id, /waiting for a staff decision/);
  expect(m.summary).toBe('App review: Acme CRM, round 1');
  expect(m.details).toContain(`\`/api/v1/apps/${appId}\``);
  expect(m.current).toMatch(/^review: review, waiting for a staff decision; staff reminded at \d{4}-\d\d-\d\dT/);
});
