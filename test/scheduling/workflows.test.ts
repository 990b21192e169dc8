import ICAL from 'ical.js';
import { type MeetingEmailKind } from '../../activities/booking';
import { buildWorkerDeps } from '../../activities/deps';
import { meetingActivities } from './support/activities';
import { createMailer } from '../../core/mailer';
import { client } from '../helpers/http';
import { withWorker } from '../helpers/temporal';
import { bookHoursAhead } from './helpers';
import { type Mail } from '../helpers/smtp';
import { useApiWorld } from '../helpers/world';

const HOUR = 3_600_000;
/** Workflow-clock time at which each email activity ran, by meeting and kind. */
let sentAt: Array<{ meetingId: string; kind: string; at: number }>;

const w = useApiWorld({ smtp: true, temporal: 'time-skipping', available: true, eachTest: true });
beforeEach(() => {
  sentAt = [];
});

function activities() {
  const mailer = createMailer({ SMTP_URL: w.smtp.url, MAIL_FROM: 'Bookings <bookings@example.com>', dataDir: '/tmp/unused' });
  const acts = meetingActivities(buildWorkerDeps(w.app.config, w.tdb.db, w.app.deps.outbox, { mailer }));
  return {
    ...acts,
    async sendMeetingEmail(meetingId: string, kind: MeetingEmailKind) {
      const sent = await acts.sendMeetingEmail(meetingId, kind);
      if (sent) sentAt.push({ meetingId, kind, at: await w.env.currentTimeMs() });
      return sent;
    },
    async cancelUnconfirmed(meetingId: string) {
      // the workflow clock when the lapse fired (read first: an activity in flight does not hold the test server's clock)
      sentAt.push({ meetingId, kind: 'lapse', at: await w.env.currentTimeMs() });
      return acts.cancelUnconfirmed(meetingId);
    },
    async sendCancellationEmail(input: Parameters<typeof acts.sendCancellationEmail>[0]) {
      const sent = await acts.sendCancellationEmail(input);
      if (sent) sentAt.push({ meetingId: input.meetingId, kind: 'cancellation', at: await w.env.currentTimeMs() });
      return sent;
    },
  };
}

/** Book through the public endpoint `hoursAhead` from now (on the hour), answering the meeting id. */
async function bookIn(hoursAhead: number, eventType: Record<string, unknown> = {}): Promise<{ id: string; startMs: number }> {
  const { res, startMs } = await bookHoursAhead(w.app.baseUrl, w.team, { hoursAhead, eventType, attendeeEmail: 'attendee@example.com' });
  if (res.status !== 201) throw new Error(`${res.status} ${res.text}`);
  return { id: res.body.meeting.id, startMs };
}

const handle = (id: string) => w.env.client.workflow.getHandle(id);
async function started(id: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    try {
      await handle(id).describe();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const row = await w.tdb.db('outbox').where({ workflow_id: id }).first();
  throw new Error(`workflow ${id} did not start: ${row?.last_error ?? 'no outbox row'}`);
}
const mailsOf = (meetingId: string): Mail[] => w.smtp.messages.filter((m) => m.headers.get('x-meeting-id') === meetingId);
const kinds = (meetingId: string) =>
  mailsOf(meetingId).map((m) => `${m.headers.get('x-meeting-email')}:${(m.to as { text: string }).text}`);
function ics(m: Mail): ICAL.Component {
  const a = m.attachments.find((x) => x.contentType.startsWith('text/calendar'))!;
  return new ICAL.Component(ICAL.parse(a.content.toString('utf8')));
}

describe('booking workflow', () => {
  it('confirms with an .ics invite, reminds 24 h and 1 h before, and completes after the end', async () => {
    await withWorker(w.env, activities(), async () => {
      const { id, startMs } = await bookIn(72);
      await started(`booking-${id}`);
      expect(await handle(`booking-${id}`).result()).toBe('completed');
      const at = (kind: string) => sentAt.find((s) => s.meetingId === id && s.kind === kind)!.at;
      expect(startMs - at('reminder_24h')).toBeGreaterThanOrEqual(24 * HOUR - 60_000);
      expect(startMs - at('reminder_24h')).toBeLessThanOrEqual(24 * HOUR);
      expect(startMs - at('reminder_1h')).toBeGreaterThanOrEqual(HOUR - 60_000);
      expect(startMs - at('reminder_1h')).toBeLessThanOrEqual(HOUR);
      expect(kinds(id).sort()).toEqual(
        [
          'confirmation:attendee@example.com',
          `confirmation:${w.team.email}`,
          'reminder_1h:attendee@example.com',
          `reminder_1h:${w.team.email}`,
          'reminder_24h:attendee@example.com',
          `reminder_24h:${w.team.email}`,
        ].sort(),
      );
      const invite = ics(mailsOf(id).find((m) => m.headers.get('x-meeting-email') === 'confirmation')!);
      expect(invite.getFirstPropertyValue('method')).toBe('REQUEST');
      const ev = new ICAL.Event(invite.getFirstSubcomponent('vevent')!);
      expect(ev.uid).toBe(`meeting-${id}@forms-scheduling-sequences`);
      expect(ev.startDate.toJSDate().getTime()).toBe(startMs);
      const row = await w.tdb.db('meetings').where({ id }).first();
      expect(row).toMatchObject({ status: 'completed', confirmation_email_sent: true });
    });
  });

  it('an unconfirmed request: the attendee hears it was received, the host is asked, and it lapses ("not confirmed") an hour before the start', async () => {
    await withWorker(w.env, activities(), async () => {
      const { id, startMs } = await bookIn(10, { requires_confirmation: true });
      expect((await w.tdb.db('meetings').where({ id }).first())!.status).toBe('pending_confirmation');
      await started(`booking-${id}`);
      expect(await handle(`booking-${id}`).result()).toBe('not_confirmed');
      await started(`meeting-cleanup-${id}`);
      await handle(`meeting-cleanup-${id}`).result();
      expect(await w.tdb.db('meetings').where({ id }).first()).toMatchObject({ status: 'cancelled', cancellation_reason: 'not confirmed' });
      // the lapse timer, read from the workflow's history: it fires an hour before the start
      const history = await handle(`booking-${id}`).fetchHistory();
      const timerEvent = history.events!.find((e) => e.timerStartedEventAttributes)!;
      const ms = (t: { seconds?: unknown; nanos?: number | null } | null | undefined) =>
        Number(t?.seconds ?? 0) * 1000 + Math.round((t?.nanos ?? 0) / 1e6);
      const firesAt = ms(timerEvent.eventTime) + ms(timerEvent.timerStartedEventAttributes!.startToFireTimeout);
      expect(Math.abs(firesAt - (startMs - HOUR))).toBeLessThan(60_000);
      expect(sentAt.find((s) => s.meetingId === id && s.kind === 'lapse')!.at).toBeGreaterThanOrEqual(startMs - HOUR);
      expect(sentAt.find((s) => s.meetingId === id && s.kind === 'cancellation')!.at).toBeGreaterThanOrEqual(startMs - HOUR);
      // only the attendee had heard of it: nobody else gets the CANCEL
      expect(kinds(id).sort()).toEqual(
        ['cancellation:attendee@example.com', `confirm_request:${w.team.email}`, 'request_received:attendee@example.com'].sort(),
      );
      const lapsed = mailsOf(id).find((m) => m.headers.get('x-meeting-email') === 'cancellation')!;
      expect(lapsed.subject).toMatch(/^Not confirmed: /);
      expect(lapsed.text).toContain('lapsed');
      expect(ics(lapsed).getFirstPropertyValue('method')).toBe('CANCEL');
      const ask = mailsOf(id).find((m) => m.headers.get('x-meeting-email') === 'confirm_request')!;
      expect(ask.text).toMatch(/Confirm: http:\/\/127\.0\.0\.1:\d+\/booking\/\S+/);
      expect(ask.text).toMatch(/Decline: http:\/\/127\.0\.0\.1:\d+\/booking\/\S+/);
      expect(await w.tdb.db('calendar_events').where({ meeting_id: id })).toHaveLength(0);
    });
  });

  it('sends the confirmation once the host confirms', async () => {
    await withWorker(w.env, activities(), async () => {
      const { id } = await bookIn(30, { requires_confirmation: true });
      await started(`booking-${id}`);
      const res = await client(w.app.baseUrl, w.team.apiKey).patch(`/api/v1/meetings/${id}`, { status: 'scheduled' });
      expect(res.status).toBe(200);
      expect(await handle(`booking-${id}`).result()).toBe('completed');
      expect(kinds(id).filter((k) => k.startsWith('confirmation')).length).toBe(2);
    });
  });

  it('cleans up a cancelled meeting exactly once and never sends its reminders', async () => {
    await withWorker(w.env, activities(), async () => {
      const { id } = await bookIn(72);
      await started(`booking-${id}`);
      // The confirmation sent first, and recorded (the CANCEL goes to every party only once the meeting is marked invited).
      const invited = async () => (await w.tdb.db('meetings').where({ id }).first('confirmation_email_sent'))!.confirmation_email_sent;
      for (let i = 0; i < 100 && (kinds(id).length < 2 || !(await invited())); i++) await new Promise((r) => setTimeout(r, 100));
      const api = client(w.app.baseUrl, w.team.apiKey);
      expect((await api.patch(`/api/v1/meetings/${id}`, { status: 'cancelled', cancellation_reason: 'Changed plans' })).status).toBe(200);
      expect((await api.patch(`/api/v1/meetings/${id}`, { status: 'cancelled' })).status).toBe(200);
      expect(await handle(`booking-${id}`).result()).toBe('cancelled');
      await started(`meeting-cleanup-${id}`);
      await handle(`meeting-cleanup-${id}`).result();
      await w.env.sleep(4 * 24 * HOUR); // past the start: nothing else may arrive
      // every party that had the invite gets the CANCEL (the host too, so the event leaves their calendar)
      expect(kinds(id).sort()).toEqual(
        [
          'cancellation:attendee@example.com',
          `cancellation:${w.team.email}`,
          'confirmation:attendee@example.com',
          `confirmation:${w.team.email}`,
        ].sort(),
      );
      const cancel = mailsOf(id).find(
        (m) => m.headers.get('x-meeting-email') === 'cancellation' && (m.to as { text: string }).text === 'attendee@example.com',
      )!;
      expect(cancel.text).toContain('Changed plans');
      const ev = new ICAL.Event(ics(cancel).getFirstSubcomponent('vevent')!);
      expect(ev.uid).toBe(`meeting-${id}@forms-scheduling-sequences`);
      expect(ev.component.getFirstPropertyValue('status')).toBe('CANCELLED');
      expect(await w.tdb.db('calendar_events').where({ meeting_id: id })).toHaveLength(0);
      expect(await w.tdb.db('outbox').where({ workflow_id: `meeting-cleanup-${id}` })).toHaveLength(1);
    });
  });

  it('DELETE removes the record and runs the cleanup', async () => {
    await withWorker(w.env, activities(), async () => {
      const { id } = await bookIn(72);
      await started(`booking-${id}`);
      expect((await client(w.app.baseUrl, w.team.apiKey).delete(`/api/v1/meetings/${id}`)).status).toBe(204);
      await started(`meeting-cleanup-${id}`);
      await handle(`meeting-cleanup-${id}`).result();
      // Signalled while waiting ('cancelled'), or it found the row gone ('deleted'): it ends either way.
      expect(['cancelled', 'deleted']).toContain(await handle(`booking-${id}`).result());
      expect(kinds(id).some((k) => k.startsWith('reminder'))).toBe(false);
      expect(await w.tdb.db('meetings').where({ id })).toHaveLength(0);
      expect(await w.tdb.db('calendar_events').where({ meeting_id: id })).toHaveLength(0);
      expect(kinds(id)).toContain('cancellation:attendee@example.com');
    });
  });
});
