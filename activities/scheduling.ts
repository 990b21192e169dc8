import { enqueueCleanup, setStatus } from '../services/scheduling/meetings';
import type { MeetingRow } from '../services/scheduling/present';
import { roomOfLink, videoProvider } from '../core/video';
import type { CleanupWorkflowInput } from '../workflows/scheduling/contract';
import { transactionWithOutbox } from '../temporal/outbox';
import type { ActivityDeps } from './deps';
import { sendCancellationEmails, sendMeetingEmails, type MeetingEmailKind } from './meeting-emails';
import { lapseAt } from '../services/scheduling/links';
import { trackedMailer } from '../services/mail/outbound';
import { calendarWriteActivities } from './calendars/write-back';
import { bookingCalendarOf } from '../services/calendars/write-back';
import type { BookingStart, MeetingState } from '../workflows/scheduling/contract';

export type { MeetingEmailKind } from './meeting-emails';

/** Activities of the scheduling feature: each re-reads the meeting, so a lost signal never sends a wrong email. */
export function schedulingActivities(deps: ActivityDeps) {
  const { db } = deps;
  const meeting = (id: string): Promise<MeetingRow | undefined> => db('meetings').where({ id }).first();

  const stateOf = (m: MeetingRow): MeetingState => ({
    status: m.status,
    startMs: new Date(m.start_time).getTime(),
    endMs: new Date(m.end_time).getTime(),
    lapseMs: lapseAt(m),
  });
  /** The emails of one kind to every party, only while the meeting is in the status the kind is for; answers whether it sent. */
  const sendFor = async (m: MeetingRow | undefined, kind: MeetingEmailKind): Promise<boolean> => {
    const pendingKind = kind === 'request_received' || kind === 'confirm_request';
    if (!m || m.status !== (pendingKind ? 'pending_confirmation' : 'scheduled')) return false;
    // Tracked (services/mail/outbound.ts): a reply or a bounce to a booking email is matched.
    const mailer = trackedMailer(deps, { teamId: m.team_id, meetingId: m.id, contactId: m.contact_id });
    await sendMeetingEmails(deps, mailer, m, kind);
    if (kind === 'confirmation' || kind === 'update') await db('meetings').where({ id: m.id }).update({ confirmation_email_sent: true });
    return true;
  };
  /** Make the video room at a provider that needs an API call (a no-op for URL rooms); idempotent. */
  const createRoom = async (m: MeetingRow | undefined): Promise<boolean> => {
    if (!m?.meeting_link || !['scheduled', 'pending_confirmation'].includes(m.status)) return false;
    const provider = videoProvider(deps.config, m.location_type);
    if (!provider?.createMeeting) return false;
    await provider.createMeeting(roomOfLink(m.meeting_link), {
      title: m.title,
      start: new Date(m.start_time),
      end: new Date(m.end_time),
    });
    return true;
  };

  return {
    ...calendarWriteActivities(deps),

    async loadMeetingState(meetingId: string): Promise<MeetingState | null> {
      const m = await meeting(meetingId);
      return m ? stateOf(m) : null;
    },

    /**
     * The booking workflow's first step (code version 2), run as one local activity: the video
     * room, the meeting's state, and for a scheduled meeting its first emails (the confirmation, or
     * the update after a reschedule). Answers the state and whether the host has a booking calendar
     * to write to. Safe to run again: the room is created idempotently, and a retry after a failed
     * send sends the kind again, as the activity it replaces did.
     */
    async beginBooking(meetingId: string, firstKind: 'confirmation' | 'update'): Promise<BookingStart> {
      const m = await meeting(meetingId);
      if (!m) return { state: null, calendar: false };
      await createRoom(m);
      await sendFor(m, firstKind);
      return { state: stateOf(m), calendar: (await bookingCalendarOf(db, m.host_user_id)) !== null };
    },

    /**
     * Sends one kind of meeting email to every party (activities/meeting-emails.ts), only while the
     * meeting is in the status the kind is for; answers whether it sent.
     */
    async sendMeetingEmail(meetingId: string, kind: MeetingEmailKind): Promise<boolean> {
      return sendFor(await meeting(meetingId), kind);
    },

    /** The start came before the host's confirmation: cancel with reason "not confirmed" (and clean up). */
    async cancelUnconfirmed(meetingId: string): Promise<boolean> {
      return transactionWithOutbox(db, deps.outbox, async (trx, enqueue) => {
        const m: MeetingRow | undefined = await trx('meetings').where({ id: meetingId }).forUpdate().first();
        if (!m || m.status !== 'pending_confirmation') return false;
        const updated = await setStatus(trx, { id: m.id, status: 'cancelled', extra: { cancellation_reason: 'not confirmed' } });
        await enqueueCleanup(trx, enqueue, { meeting: updated, reason: 'not confirmed', notifyAttendee: true });
        return true;
      });
    },

    /** After the end: scheduled → completed, unless the status changed meanwhile. */
    async markCompleted(meetingId: string): Promise<boolean> {
      return db.transaction(async (trx) => {
        const m = await trx('meetings').where({ id: meetingId, status: 'scheduled' }).forUpdate().first('id');
        if (!m) return false;
        await setStatus(trx, { id: meetingId, status: 'completed' });
        return true;
      });
    },

    /** Make the video room at a provider that needs an API call (a no-op for URL rooms); idempotent. */
    async createVideoMeeting(meetingId: string): Promise<boolean> {
      return createRoom(await meeting(meetingId));
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
      const mailer = trackedMailer(deps, { teamId: input.teamId, meetingId: input.meetingId });
      await sendCancellationEmails(db, mailer, input);
      return true;
    },
  };
}

export type SchedulingActivities = ReturnType<typeof schedulingActivities>;
