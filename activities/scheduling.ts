import type { Executor } from '../db/knex';
import { cancelIcs, inviteIcs, meetingUid, type IcsMeeting } from '../domain/ics';
import { enqueueCleanup, setStatus } from '../services/scheduling/meetings';
import type { MeetingRow } from '../services/scheduling/present';
import { roomOfLink, videoProvider } from '../core/video';
import type { CleanupWorkflowInput } from '../workflows/scheduling/contract';
import { transactionWithOutbox } from '../temporal/outbox';
import type { ActivityDeps } from './deps';

export type MeetingEmailKind = 'confirmation' | 'reminder_24h' | 'reminder_1h';

const SUBJECTS: Record<MeetingEmailKind, string> = {
  confirmation: 'Confirmed',
  reminder_24h: 'Reminder (tomorrow)',
  reminder_1h: 'Reminder (in 1 hour)',
};

async function hostOf(db: Executor, userId: string): Promise<{ name: string; email: string }> {
  const u = await db('users').where({ id: userId }).first('email', 'name');
  return { name: u?.name ?? u?.email ?? 'Host', email: u?.email ?? 'unknown@localhost' };
}

function icsOf(m: MeetingRow, host: { name: string; email: string }, sequence: number): IcsMeeting {
  return {
    uid: meetingUid(m.id),
    sequence,
    summary: m.title,
    description: m.description,
    start: new Date(m.start_time),
    end: new Date(m.end_time),
    location: m.meeting_link,
    url: m.meeting_link && /^https?:/.test(m.meeting_link) ? m.meeting_link : null,
    organizer: host,
    attendees: [{ name: m.attendee_name, email: m.attendee_email }, ...m.guests.map((g) => ({ email: g }))],
    status: 'confirmed',
  };
}

function when(m: MeetingRow): string {
  return (
    new Date(m.start_time).toLocaleString('en-GB', { timeZone: m.timezone, dateStyle: 'full', timeStyle: 'short' }) + ` (${m.timezone})`
  );
}

/** Activities of the scheduling feature: each re-reads the meeting, so a lost signal never sends a wrong email. */
export function schedulingActivities(deps: ActivityDeps) {
  const { db } = deps;
  const meeting = (id: string): Promise<MeetingRow | undefined> => db('meetings').where({ id }).first();

  return {
    async loadMeetingState(meetingId: string): Promise<{ status: string; startMs: number; endMs: number } | null> {
      const m = await meeting(meetingId);
      return m ? { status: m.status, startMs: new Date(m.start_time).getTime(), endMs: new Date(m.end_time).getTime() } : null;
    },

    /** Sends only while the meeting is `scheduled`; answers whether it sent. */
    async sendMeetingEmail(meetingId: string, kind: MeetingEmailKind): Promise<boolean> {
      const m = await meeting(meetingId);
      if (!m || m.status !== 'scheduled') return false;
      const host = await hostOf(db, m.host_user_id);
      const ics = inviteIcs(icsOf(m, host, 0));
      const subject = `${SUBJECTS[kind]}: ${m.title} on ${when(m)}`;
      const text = `${m.title}\nWhen: ${when(m)}\n${m.meeting_link ? `Where: ${m.meeting_link}\n` : ''}`;
      const attachments =
        kind === 'confirmation'
          ? [{ filename: 'invite.ics', content: ics, contentType: 'text/calendar; method=REQUEST; charset=utf-8' }]
          : [];
      await deps.mailer.send({
        to: m.attendee_email,
        cc: m.guests.length ? m.guests : undefined,
        subject,
        text,
        attachments,
        headers: { 'X-Meeting-Id': m.id, 'X-Meeting-Email': kind },
      });
      await deps.mailer.send({
        to: host.email,
        subject: `${subject} with ${m.attendee_name}`,
        text,
        attachments,
        headers: { 'X-Meeting-Id': m.id, 'X-Meeting-Email': kind },
      });
      if (kind === 'confirmation') await db('meetings').where({ id: m.id }).update({ confirmation_email_sent: true });
      return true;
    },

    /** The start came before the host's confirmation: cancel with reason "not confirmed" (and clean up). */
    async cancelUnconfirmed(meetingId: string): Promise<boolean> {
      return transactionWithOutbox(db, deps.outbox, async (trx, enqueue) => {
        const m: MeetingRow | undefined = await trx('meetings').where({ id: meetingId }).forUpdate().first();
        if (!m || m.status !== 'pending_confirmation') return false;
        const updated = await setStatus(trx, m.id, 'cancelled', { cancellation_reason: 'not confirmed' });
        await enqueueCleanup(trx, enqueue, updated, { reason: 'not confirmed', notifyAttendee: true });
        return true;
      });
    },

    /** After the end: scheduled → completed, unless the status changed meanwhile. */
    async markCompleted(meetingId: string): Promise<boolean> {
      return db.transaction(async (trx) => {
        const m = await trx('meetings').where({ id: meetingId, status: 'scheduled' }).forUpdate().first('id');
        if (!m) return false;
        await setStatus(trx, meetingId, 'completed');
        return true;
      });
    },

    /** Make the video room at a provider that needs an API call (a no-op for URL rooms); idempotent. */
    async createVideoMeeting(meetingId: string): Promise<boolean> {
      const m = await meeting(meetingId);
      if (!m?.meeting_link || !['scheduled', 'pending_confirmation'].includes(m.status)) return false;
      const provider = videoProvider(deps.config, m.location_type);
      if (!provider?.createMeeting) return false;
      await provider.createMeeting(roomOfLink(m.meeting_link), {
        title: m.title,
        start: new Date(m.start_time),
        end: new Date(m.end_time),
      });
      return true;
    },

    async deleteVideoMeeting(input: CleanupWorkflowInput): Promise<void> {
      if (input.meetingLink) await videoProvider(deps.config, input.locationType)?.deleteMeeting(roomOfLink(input.meetingLink));
    },

    async deleteCalendarEvents(input: CleanupWorkflowInput): Promise<number> {
      const byId = input.calendarEventIds.length ? await db('calendar_events').whereIn('id', input.calendarEventIds).delete() : 0;
      return byId + (await db('calendar_events').where({ meeting_id: input.meetingId }).delete());
    },

    async sendCancellationEmail(input: CleanupWorkflowInput): Promise<boolean> {
      if (!input.notifyAttendee) return false;
      const host = await hostOf(db, input.hostUserId);
      const ics = cancelIcs({
        uid: meetingUid(input.meetingId),
        sequence: 1,
        summary: input.title,
        start: new Date(input.startTime),
        end: new Date(input.endTime),
        location: input.meetingLink,
        organizer: host,
        attendees: [{ name: input.attendeeName, email: input.attendeeEmail }],
        status: 'cancelled',
      });
      await deps.mailer.send({
        to: input.attendeeEmail,
        subject: `Cancelled: ${input.title}`,
        text: `${input.title} on ${input.startTime} has been cancelled.${input.reason ? `\nReason: ${input.reason}` : ''}`,
        attachments: [{ filename: 'cancel.ics', content: ics, contentType: 'text/calendar; method=CANCEL; charset=utf-8' }],
        headers: { 'X-Meeting-Id': input.meetingId, 'X-Meeting-Email': 'cancellation' },
      });
      return true;
    },
  };
}

export type SchedulingActivities = ReturnType<typeof schedulingActivities>;
