// The booking lifecycle through the API and the signed links (no browser): host reschedules with
// PATCH start_time, host confirms or declines a request from its email's links, guests, signed
// tokens, and the sequence exit that waits for a confirmation.
import { signLinkToken, verifyLinkToken } from '../../domain/link-tokens';
import { createTestTeam } from '../helpers/fixtures';
import { client } from '../helpers/http';
import { withWorker } from '../helpers/temporal';
import { makeContact, makeEnrollment, makeSequence } from '../sequences/support/factory';
import { addMember } from '../../services/team';
import { alwaysAvailable, publishedEventType } from './helpers';
import { useSchedulingWorld } from './support/world';
import { testConfig } from '../helpers/config';

const HOUR = 3_600_000;
const w = useSchedulingWorld();
const { waitForMail } = w;
const linkIn = (text: string, label: string) => new RegExp(`${label}: (http\\S+)`).exec(text)![1];
const onTheHour = (hoursAhead: number) => Math.ceil((Date.now() + hoursAhead * HOUR) / HOUR) * HOUR;

async function book(startMs: number, eventType: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  const { eventTypeId } = await publishedEventType(
    w.app.baseUrl,
    w.team,
    {},
    { start_time_increment: 60, max_booking_days: 30, ...eventType },
  );
  return client(w.app.baseUrl).post('/api/calendar/book', {
    user_id: w.team.userId,
    team_id: w.team.teamId,
    event_type_id: eventTypeId,
    attendee_email: 'lin@example.com',
    attendee_name: 'Lin Lead',
    start: new Date(startMs).toISOString(),
    end: new Date(startMs + 30 * 60_000).toISOString(),
    ...extra,
  });
}

describe('signed link tokens', () => {
  const key = Buffer.alloc(32, 7);
  const id = '6f1c2b9a-1d2e-4f00-8a11-0123456789ab';
  test('round trip; a changed byte, another key, or the expiry makes it invalid', () => {
    const exp = new Date(Date.now() + HOUR);
    const t = signLinkToken(key, id, 'reschedule', exp);
    expect(verifyLinkToken(key, t, Date.now())).toEqual({
      meetingId: id,
      purpose: 'reschedule',
      expiresAt: new Date(Math.ceil(exp.getTime() / 1000) * 1000),
    });
    const [mid, purpose, mac] = t.split('.');
    expect(verifyLinkToken(key, `${mid}.c${purpose.slice(1)}.${mac}`, Date.now())).toBeNull(); // purpose swapped
    expect(verifyLinkToken(Buffer.alloc(32, 8), t, Date.now())).toBeNull();
    expect(verifyLinkToken(key, t, exp.getTime() + 1000)).toBeNull();
    expect(verifyLinkToken(key, 'not-a-token', Date.now())).toBeNull();
  });
});

describe('guests', () => {
  test('an event type without guests refuses them with a 400 naming the field', async () => {
    const res = await book(onTheHour(50), { guests_allowed: false }, { guests: ['g@example.com'] });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ path: 'body.guests', message: 'this event type does not allow guests' }]);
  });
});

describe('group pages', () => {
  test('each co-host gets the REQUEST and, on cancellation, the CANCEL', async () => {
    const t = await createTestTeam(w.tdb.db);
    const coHost = await addMember(
      { db: w.tdb.db, config: testConfig() },
      { teamId: t.teamId, values: { email: `cohost-${t.teamId}@example.com`, role: 'member' } },
    );
    for (const id of [t.userId, coHost.id]) await alwaysAvailable(w.tdb.db, id);
    const { eventTypeId, pageId } = await publishedEventType(
      w.app.baseUrl,
      t,
      { page_type: 'group', host_user_ids: [t.userId, coHost.id] },
      { start_time_increment: 60, max_booking_days: 30 },
    );
    await withWorker(w.env, w.activities(), async () => {
      const startMs = onTheHour(55);
      const res = await client(w.app.baseUrl).post('/api/calendar/book', {
        user_id: t.userId,
        team_id: t.teamId,
        scheduling_page_id: pageId,
        event_type_id: eventTypeId,
        attendee_email: 'group-guest@example.com',
        start: new Date(startMs).toISOString(),
        end: new Date(startMs + 30 * 60_000).toISOString(),
      });
      expect(res.status).toBe(201);
      const id = res.body.meeting.id;
      const invited = await waitForMail(id, 'confirmation', 3);
      expect(invited.map((m) => (m.to as { text: string }).text).sort()).toEqual(['group-guest@example.com', t.email, coHost.email].sort());
      expect((await client(w.app.baseUrl, t.apiKey).patch(`/api/v1/meetings/${id}`, { status: 'cancelled' })).status).toBe(200);
      const cancelled = await waitForMail(id, 'cancellation', 3);
      expect(cancelled.map((m) => (m.to as { text: string }).text).sort()).toEqual(
        ['group-guest@example.com', t.email, coHost.email].sort(),
      );
    });
  });
});

describe('host reschedule: PATCH /api/v1/meetings/{id} with start_time', () => {
  test('moves the meeting (linked both ways), keeps its link; a taken slot is 409, an unoffered one 400', async () => {
    const api = client(w.app.baseUrl, w.team.apiKey);
    const first = await book(onTheHour(60), { location_type: 'video_provider_1' });
    const other = await book(onTheHour(62));
    expect([first.status, other.status]).toEqual([201, 201]);
    const id = first.body.meeting.id;
    const taken = await api.patch(`/api/v1/meetings/${id}`, { start_time: other.body.meeting.start_time });
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe('slot_unavailable');
    const offIncrement = await api.patch(`/api/v1/meetings/${id}`, { start_time: new Date(onTheHour(70) + 7 * 60_000).toISOString() });
    expect(offIncrement.status).toBe(400);
    expect(offIncrement.body.error.code).toBe('slot_not_offered');
    const mixed = await api.patch(`/api/v1/meetings/${id}`, { start_time: new Date(onTheHour(70)).toISOString(), status: 'cancelled' });
    expect(mixed.status).toBe(400);
    expect(mixed.body.error.details[0].path).toBe('body.start_time');
    // the meeting is untouched by the refused attempts
    expect((await w.tdb.db('meetings').where({ id }).first())!.status).toBe('scheduled');

    // moving by 30 minutes overlaps the old time: the old slot no longer blocks
    const newStart = new Date(new Date(first.body.meeting.start_time).getTime() + HOUR).toISOString();
    const moved = await api.patch(`/api/v1/meetings/${id}`, { start_time: newStart });
    expect(moved.status).toBe(200);
    expect(moved.body.data).toMatchObject({ id, status: 'rescheduled' });
    const next = await api.get(`/api/v1/meetings/${moved.body.data.rescheduled_to_id}`);
    expect(next.body.data).toMatchObject({
      status: 'scheduled',
      rescheduled_from_id: id,
      start_time: newStart,
      meeting_link: first.body.meeting_link,
    });
    const again = await api.patch(`/api/v1/meetings/${id}`, { start_time: new Date(onTheHour(80)).toISOString() });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('invalid_transition');

    const stranger = await createTestTeam(w.tdb.db);
    const foreign = await client(w.app.baseUrl, stranger.apiKey).patch(`/api/v1/meetings/${next.body.data.id}`, {
      start_time: new Date(onTheHour(90)).toISOString(),
    });
    expect(foreign.status).toBe(404);
  });
});

describe('confirmation flow', () => {
  test('the host confirms from the email link: scheduled, then the confirmation reaches everyone; the sequence exit waits for it', async () => {
    const sequenceId = await makeSequence(w.tdb.db, w.team.teamId, { exit_on_meeting_booked: true }).then((s: { id: string }) => s.id);
    const contactId = await makeContact(w.tdb.db, w.team.teamId, { email: 'seq-lead@example.com' });
    const enrollmentId = await makeEnrollment(w.tdb.db, w.team.teamId, sequenceId, contactId);
    await withWorker(w.env, w.activities(), async () => {
      const res = await book(onTheHour(30), { requires_confirmation: true }, { attendee_email: 'seq-lead@example.com' });
      expect(res.body.meeting.status).toBe('pending_confirmation');
      const id = res.body.meeting.id;
      const [received] = await waitForMail(id, 'request_received');
      expect(received.to).toMatchObject({ text: 'seq-lead@example.com' });
      expect(received.subject).toMatch(/^Request received, pending confirmation: /);
      const [ask] = await waitForMail(id, 'confirm_request');
      expect(ask.to).toMatchObject({ text: w.team.email });
      // a pending request is not yet "meeting booked"
      expect((await w.tdb.db('sequence_enrollments').where({ id: enrollmentId }).first())!.status).toBe('active');

      const page = await fetch(linkIn(ask.text!, 'Confirm'));
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('Confirm this booking request');
      const done = await fetch(linkIn(ask.text!, 'Confirm'), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: '',
      });
      expect(done.status).toBe(200);
      expect(await done.text()).toContain('Booking confirmed');
      expect((await w.tdb.db('meetings').where({ id }).first())!.status).toBe('scheduled');
      const confirmations = await waitForMail(id, 'confirmation', 2);
      expect(confirmations.map((m) => (m.to as { text: string }).text).sort()).toEqual(['seq-lead@example.com', w.team.email].sort());
      expect(await w.tdb.db('sequence_enrollments').where({ id: enrollmentId }).first()).toMatchObject({
        status: 'exited',
        exit_reason: 'meeting_booked',
      });

      // the decline link of a confirmed request no longer applies
      const late = await fetch(linkIn(ask.text!, 'Decline'), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'reason=x',
      });
      expect(late.status).toBe(409);
    });
  });

  test('the host declines with a reason: cancelled, and the attendee (only) is told', async () => {
    await withWorker(w.env, w.activities(), async () => {
      const res = await book(onTheHour(40), { requires_confirmation: true });
      const id = res.body.meeting.id;
      const [ask] = await waitForMail(id, 'confirm_request');
      const done = await fetch(linkIn(ask.text!, 'Decline'), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'reason=Fully+booked+that+week',
      });
      expect(done.status).toBe(200);
      expect(await w.tdb.db('meetings').where({ id }).first()).toMatchObject({
        status: 'cancelled',
        cancellation_reason: 'Fully booked that week',
      });
      const told = await waitForMail(id, 'cancellation');
      expect(told.map((m) => (m.to as { text: string }).text)).toEqual(['lin@example.com']);
      expect(told[0].text).toContain('Fully booked that week');
    });
  });
});
