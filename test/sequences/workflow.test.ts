import { onContactDeleted, onMeetingBooked } from '../../services/sequences/hooks';
import { transactionWithOutbox } from '../../temporal/outbox';
import { http } from '../helpers/http';
import { eventually } from '../helpers/smtp';
import { alwaysAvailable, dayFromNow, publishedEventType } from '../scheduling/helpers';
import { makeContact } from './support/factory';
import { useWorld } from './support/world';

/**
 * Enrollment workflows on the time-skipping server, with a real SMTP server and a Twilio
 * stand-in: steps at the right times, every exit rule, pause/resume, and the contact detail.
 */
const w = useWorld();

const DAY = 86_400_000;

async function sequence(body: Record<string, unknown>) {
  const res = await w.dash.post('/api/v1/sequences', { name: 'Seq', status: 'active', ...body });
  expect(res.status).toBe(201);
  return res.body.data as { id: string; steps: Array<{ id: string }> };
}

const emailStep = (delay: number, unit = 'days', subject = 'Hello {{first_name}}') => ({
  channel: 'email',
  delay: { value: delay, unit },
  subject,
  body: `<p>${subject}</p><a href="https://example.com/x?a=1&amp;b=2">Link</a>`,
});

async function enrollOne(sequenceId: string, contactId: string) {
  const res = await w.api.post(`/api/v1/sequences/${sequenceId}/enrollments`, { contact_id: contactId });
  expect(res.status).toBe(201);
  return res.body.data[0] as { id: string; status: string; skip_reason: string | null };
}

/** A header as sent, unfolded (mailparser turns List-Unsubscribe into an object). */
const header = (raw: string, name: string) => new RegExp(`^${name}:[ \t]*(.*)$`, 'im').exec(raw.replace(/\r?\n[ \t]+/g, ' '))?.[1].trim();

const mailsTo = (email: string) => w.smtp.messages.filter((m) => m.to === email);

async function contactEmail(id: string): Promise<string> {
  return (await w.tdb.db('contacts').where({ id }).first('email'))!.email!;
}

/**
 * Wait until the workflow sleeps before `stepId`: the send before it has finished and its workflow
 * task is recorded. Skipping time earlier would time out that task on the time-skipping server and
 * replay the send, which then reports the step as a duplicate.
 */
async function waitingFor(enrollmentId: string, stepId: string) {
  const handle = w.env.client.workflow.getHandle(`enrollment-${enrollmentId}`);
  for (let i = 0; i < 400; i++) {
    const state = await handle.query<{ phase: string; stepId: string | null }>('state');
    if (state.phase === 'waiting_delay' && state.stepId === stepId) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`enrollment ${enrollmentId} never reached the delay before step ${stepId}`);
}

/**
 * Wait for the workflow to complete without skipping time (describe() does not unlock time
 * skipping, awaiting a result does): e.g. a signal stopped it, not a timer. Skipping time while a
 * send (a local activity) runs can time out its workflow task on the test server; the replayed send
 * then finds the step already claimed and reports a duplicate.
 */
async function closedWithoutSkipping(enrollmentId: string) {
  const handle = w.env.client.workflow.getHandle(`enrollment-${enrollmentId}`);
  for (let i = 0; i < 200; i++) {
    if ((await handle.describe()).status.name === 'COMPLETED') return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`enrollment ${enrollmentId} did not complete within 10 s of real time`);
}

/** Run inside a transaction with the outbox (as the scheduling and contacts features do). */
const inTx = (fn: Parameters<typeof transactionWithOutbox>[2]) => transactionWithOutbox(w.tdb.db, w.app.deps.outbox, fn);

test('a 3-step email + SMS sequence over 7 days completes in seconds, each message at its time', async () => {
  const seq = await sequence({
    send_from_number: '+15550001111',
    steps: [
      emailStep(0),
      { channel: 'sms', delay: { value: 2, unit: 'days' }, body: 'Hi {{first_name}}, text from us' },
      emailStep(5, 'days', 'Last one {{first_name}}'),
    ],
  });
  const contact = await makeContact(w.tdb.db, w.team.teamId, { phone: '+15559990000', first_name: 'Grace' });
  const email = await contactEmail(contact);
  const e = await enrollOne(seq.id, contact);
  expect(e.status).toBe('active');
  const started = Date.now();
  const result = await w.result(e.id);
  expect(Date.now() - started).toBeLessThan(60_000);
  expect(result).toEqual({ status: 'completed', reason: 'completed', sent: 3 });

  const mails = mailsTo(email);
  expect(mails.map((m) => m.parsed.subject)).toEqual(['Hello Grace', 'Last one Grace']);
  const first = mails[0];
  expect(header(first.raw, 'List-Unsubscribe')).toMatch(new RegExp(`^<${w.app.baseUrl}/u/[A-Za-z0-9_-]+>$`));
  expect(header(first.raw, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
  expect(first.parsed.html).toContain(`${w.app.baseUrl}/t/o/`);
  expect(first.parsed.html).toContain(`${w.app.baseUrl}/t/c/`);
  const sms = w.twilio.messages.filter((m) => m.params.To === '+15559990000');
  expect(sms).toHaveLength(1);
  expect(sms[0].params).toMatchObject({ From: '+15550001111', Body: expect.stringContaining('Hi Grace, text from us') });
  expect(sms[0].accountSid).toBe(w.app.config.TWILIO_ACCOUNT_SID);

  const sends = await w.tdb.db('sequence_sends').where({ enrollment_id: e.id }).orderBy('position');
  expect(sends.map((s) => [s.channel, s.status])).toEqual([
    ['email', 'sent'],
    ['sms', 'sent'],
    ['email', 'sent'],
  ]);
  const t0 = sends[0].sent_at!.getTime();
  expect(sends[1].sent_at!.getTime() - t0).toBeGreaterThanOrEqual(2 * DAY);
  expect(sends[1].sent_at!.getTime() - t0).toBeLessThan(2 * DAY + 60_000);
  expect(sends[2].sent_at!.getTime() - t0).toBeGreaterThanOrEqual(7 * DAY);
  expect(sends[2].sent_at!.getTime() - t0).toBeLessThan(7 * DAY + 60_000);

  // Tracking: the pixel, a click redirect to the original link, then analytics. A click seconds
  // after delivery is a link scanner's (domain/engagement.ts): this one comes an hour later.
  await w.tdb
    .db('sequence_sends')
    .where({ id: sends[0].id })
    .update({ accepted_at: w.tdb.db.raw(`accepted_at - interval '1 hour'`) });
  const token = sends[0].token;
  expect((await fetch(`${w.app.baseUrl}/t/o/${token}`)).headers.get('content-type')).toBe('image/gif');
  const click = await fetch(`${w.app.baseUrl}/t/c/${token}/0`, { redirect: 'manual' });
  expect(click.status).toBe(302);
  expect(click.headers.get('location')).toBe('https://example.com/x?a=1&b=2');
  const stats = (await w.api.get(`/api/v1/sequences/${seq.id}/analytics`)).body.data;
  expect(stats).toMatchObject({ enrolled: 1, active: 0, completed: 1, exited: 0, skipped: 0 });
  // Email: accepted by SMTP, not yet delivered (no bounce window has passed); SMS: no Twilio report yet.
  expect(stats.steps.map((s: Record<string, number>) => [s.sent, s.accepted, s.delivered, s.opened, s.clicked])).toEqual([
    [1, 1, 0, 1, 1],
    [1, 0, 0, 0, 0],
    [1, 1, 0, 0, 0],
  ]);
  // Once the bounce window has passed with no bounce, accepted mail counts as delivered.
  await w.tdb
    .db('sequence_sends')
    .where({ enrollment_id: e.id })
    .update({ accepted_at: w.tdb.db.raw(`accepted_at - interval '73 hours'`) });
  const later = (await w.api.get(`/api/v1/sequences/${seq.id}/analytics`)).body.data;
  expect(later.steps.map((s: Record<string, number>) => s.delivered)).toEqual([1, 0, 1]);

  // API → workflow → back on the contact detail, with its friendly label.
  const detail = await w.api.get(`/api/v1/contacts/${contact}`);
  expect(detail.status).toBe(200);
  expect(detail.body.data.enrollments).toEqual([
    expect.objectContaining({
      id: e.id,
      sequence_id: seq.id,
      status: 'completed',
      exit_reason: 'completed',
      exit_reason_label: 'Finished all steps',
      current_step: 3,
    }),
  ]);
});

describe('exits stop the running workflow at once and record their reason', () => {
  const twoSteps = () => [emailStep(0), emailStep(3)];

  async function runningEnrollment(extra: Record<string, unknown> = {}) {
    const seq = await sequence({ steps: twoSteps(), ...extra });
    const contact = await makeContact(w.tdb.db, w.team.teamId);
    const email = await contactEmail(contact);
    const e = await enrollOne(seq.id, contact);
    await w.smtp.waitFor(w.smtp.messages.length + 1);
    await eventually(() => mailsTo(email).length >= 1, `the first email to ${email}`);
    await waitingFor(e.id, seq.steps[1].id);
    return { seq, contact, email, e };
  }

  async function expectExited(enrollmentId: string, email: string, reason: string, label: string, viaSignal = true) {
    if (viaSignal) await closedWithoutSkipping(enrollmentId);
    const result = await w.result(enrollmentId);
    expect(result).toMatchObject({ status: 'exited', reason });
    expect(mailsTo(email)).toHaveLength(1); // the 3-day step never went out
    const row = await w.tdb.db('sequence_enrollments').where({ id: enrollmentId }).first();
    expect(row!.status).toBe('exited');
    expect(row!.exit_reason).toBe(reason);
    const { listContactEnrollments } = await import('../../services/sequences/contact-enrollments');
    const listed = await listContactEnrollments({ db: w.tdb.db }, { teamId: w.team.teamId, contactId: row!.contact_id });
    expect(listed.find((x) => x.id === enrollmentId)?.exit_reason_label).toBe(label);
  }

  test('meeting booked (exit_on_meeting_booked)', async () => {
    const { contact, email, e } = await runningEnrollment({ exit_on_meeting_booked: true });
    await inTx((trx, enqueue) =>
      onMeetingBooked(trx, enqueue, { teamId: w.team.teamId, contactId: contact, meetingId: crypto.randomUUID() }),
    );
    await expectExited(e.id, email, 'meeting_booked', 'Booked a meeting');
  });

  test('added to a sequence listed in exit_on_added_to_sequence_ids', async () => {
    const other = await sequence({ name: 'Demo follow-up', steps: [emailStep(10)] });
    const { contact, email, e } = await runningEnrollment({ exit_on_added_to_sequence_ids: [other.id] });
    const moved = await enrollOne(other.id, contact);
    expect(moved.status).toBe('active');
    await expectExited(e.id, email, 'added_to_other_sequence', 'Added to sequence Demo follow-up');
  });

  test('unsubscribe through the API', async () => {
    const { contact, email, e } = await runningEnrollment();
    expect((await w.api.post('/api/v1/sequences/unsubscribes', { contact_ids: [contact], channel: 'email' })).status).toBe(201);
    await expectExited(e.id, email, 'unsubscribed', 'Unsubscribed');
  });

  test('one-click unsubscribe (RFC 8058 POST to the List-Unsubscribe URL)', async () => {
    const { email, e } = await runningEnrollment();
    const url = String(header(mailsTo(email)[0].raw, 'List-Unsubscribe')).slice(1, -1);
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(res.status).toBe(200);
    await expectExited(e.id, email, 'unsubscribed', 'Unsubscribed');
  });

  test('manual unenroll', async () => {
    const { seq, email, e } = await runningEnrollment();
    expect((await w.api.delete(`/api/v1/sequences/${seq.id}/enrollments/${e.id}`)).status).toBe(204);
    await expectExited(e.id, email, 'unenrolled', 'Removed from the sequence');
  });

  test('contact deleted', async () => {
    const { contact, email, e } = await runningEnrollment();
    await inTx(async (trx, enqueue) => {
      await trx('contacts').where({ id: contact }).update({ deleted_at: trx.fn.now() });
      await onContactDeleted(trx, enqueue, { teamId: w.team.teamId, contactId: contact });
    });
    await expectExited(e.id, email, 'contact_deleted', 'Contact deleted');
  });

  test('sequence archived', async () => {
    const { seq, email, e } = await runningEnrollment();
    expect((await w.dash.delete(`/api/v1/sequences/${seq.id}`)).status).toBe(204);
    await expectExited(e.id, email, 'sequence_archived', 'Sequence archived');
  });

  test('a lost signal still cannot cause a wrong message: the send re-checks the database', async () => {
    const { contact, email, e } = await runningEnrollment();
    // Unsubscribe behind the API's back: no exit row, no signal.
    await w.tdb.db('contacts').where({ id: contact }).update({ unsubscribed_email: true });
    await expectExited(e.id, email, 'unsubscribed', 'Unsubscribed', false);
  });
});

test('a meeting booked, then cancelled after the contact exited: the exit stands, and the contact may be enrolled again', async () => {
  const seq = await sequence({ steps: [emailStep(0), emailStep(3)], exit_on_meeting_booked: true });
  const contact = await makeContact(w.tdb.db, w.team.teamId);
  const email = await contactEmail(contact);
  const e = await enrollOne(seq.id, contact);
  await eventually(() => mailsTo(email).length >= 1, `the first email to ${email}`);
  await waitingFor(e.id, seq.steps[1].id);

  // The contact books on the public booking page (the same endpoint, same email): the booking exits the enrollment.
  await alwaysAvailable(w.tdb.db, w.team.userId);
  const { eventTypeId } = await publishedEventType(w.app.baseUrl, w.team);
  const day = dayFromNow(2);
  const av = await http(
    w.app.baseUrl,
    'get',
    `/api/calendar/availability?event_type_id=${eventTypeId}&start_date=${day}&end_date=${day}&timezone=UTC`,
  );
  expect(av.status).toBe(200);
  const slot = av.body.data.slots[0] as { start: string; end: string };
  const booked = await http(w.app.baseUrl, 'post', '/api/calendar/book', {
    body: { event_type_id: eventTypeId, start_time: slot.start, end_time: slot.end, timezone: 'UTC', name: 'Ada', email },
  });
  expect(booked.status).toBe(201);
  expect(booked.body.data.contact_id).toBe(contact);
  await closedWithoutSkipping(e.id);
  expect(await w.result(e.id)).toMatchObject({ status: 'exited', reason: 'meeting_booked' });

  // Later the meeting is cancelled. The exit stands: nothing restarts the sequence, the 3-day step never goes out.
  const cancelled = await w.api.patch(`/api/v1/meetings/${booked.body.data.id}`, {
    status: 'cancelled',
    cancellation_reason: 'Cannot make it',
  });
  expect(cancelled.status).toBe(200);
  expect(await w.tdb.db('sequence_enrollments').where({ id: e.id }).first()).toMatchObject({
    status: 'exited',
    exit_reason: 'meeting_booked',
  });
  // Only the sequence's first step reached the contact from the sequence (the booking's own
  // confirmation and cancellation, which carry X-Meeting-Id, go to the same address).
  expect(mailsTo(email).filter((m) => !m.parsed.headers.has('x-meeting-id'))).toHaveLength(1);

  // A cancelled meeting no longer counts as booked: enrolling the contact again (by hand, or by an
  // automation) is not skipped as meeting_already_booked.
  const followUp = await sequence({ name: 'After a cancellation', steps: [emailStep(10)], skip_if_meeting_booked: true });
  expect(await enrollOne(followUp.id, contact)).toMatchObject({ status: 'active', skip_reason: null });
});

test('pausing holds enrollments at their next step and resuming continues them', async () => {
  const seq = await sequence({ steps: [emailStep(0), emailStep(1)] });
  const contact = await makeContact(w.tdb.db, w.team.teamId);
  const email = await contactEmail(contact);
  const e = await enrollOne(seq.id, contact);
  await eventually(() => mailsTo(email).length >= 1, `the first email to ${email}`);
  await waitingFor(e.id, seq.steps[1].id);
  expect((await w.dash.patch(`/api/v1/sequences/${seq.id}`, { status: 'paused' })).body.data.status).toBe('paused');
  const handle = w.env.client.workflow.getHandle(`enrollment-${e.id}`);
  // Skip well past the 1-day delay: the step is held, not sent.
  await w.env.sleep(3 * DAY);
  expect((await handle.query<{ phase: string }>('state')).phase).toBe('paused');
  expect(mailsTo(email)).toHaveLength(1);
  expect((await w.dash.patch(`/api/v1/sequences/${seq.id}`, { status: 'active' })).body.data.status).toBe('active');
  // The resume signal alone finishes it: the held step goes out at once, no timer involved.
  await closedWithoutSkipping(e.id);
  expect(await w.result(e.id)).toMatchObject({ status: 'completed', sent: 2 });
  expect(mailsTo(email)).toHaveLength(2);
});

test('a sending window holds a step until the window opens in the contact timezone', async () => {
  const seq = await sequence({ steps: [emailStep(0)], sending_window: { days: [1, 2, 3, 4, 5], start: '09:00', end: '10:00' } });
  const contact = await makeContact(w.tdb.db, w.team.teamId, { timezone: 'Asia/Tokyo' });
  const e = await enrollOne(seq.id, contact);
  expect(await w.result(e.id)).toMatchObject({ status: 'completed', sent: 1 });
  const sent = (await w.tdb.db('sequence_sends').where({ enrollment_id: e.id }).first())!.sent_at as Date;
  const local = new Intl.DateTimeFormat('en-US', {
    timeZone: 'Asia/Tokyo',
    weekday: 'short',
    hour: '2-digit',
    hour12: false,
  }).formatToParts(sent);
  expect(['Mon', 'Tue', 'Wed', 'Thu', 'Fri']).toContain(local.find((p) => p.type === 'weekday')!.value);
  expect(local.find((p) => p.type === 'hour')!.value).toBe('09');
});
