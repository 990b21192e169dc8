import { enqueueCleanup, setStatus } from './meeting-status';
import type { MeetingRow } from '../meetings/row';
import { roomOfLink } from '../../core/video';
import { ensureZoomMeeting, removeZoomMeeting } from '../zoom/meetings';
import type { CleanupWorkflowInput } from '../../workflows/scheduling/contract';
import { transactionWithOutbox } from '../../temporal/outbox';
import type { ServiceDeps, WorkerDeps } from '../deps';
import { sendCancellationEmails, sendMeetingEmails, type MeetingEmailKind } from './meeting-emails';
import { lapseAt } from './links';
import { trackedMailer } from '../mail/outbound';
import { bookingCalendarOf } from '../calendars/write-back';
import { ensureConferenceLink } from '../calendars/conference-link';
import { followupStart } from '../meeting-followup/workflow-starts';
import type { BookingStart, MeetingState } from '../../workflows/scheduling/contract';

/**
 * The booking and cleanup workflows' steps (activities/booking.ts adapts them). Each re-reads the
 * meeting, so a lost signal never sends a wrong email.
 */

const meeting = (deps: Pick<ServiceDeps, 'db'>, id: string): Promise<MeetingRow | undefined> => deps.db('meetings').where({ id }).first();

const stateOf = (m: MeetingRow): MeetingState => ({
  status: m.status,
  startMs: new Date(m.start_time).getTime(),
  endMs: new Date(m.end_time).getTime(),
  lapseMs: lapseAt(m),
});

/** The emails of one kind to every party, only while the meeting is in the status the kind is for; answers whether it sent. */
async function sendFor(deps: WorkerDeps, m: MeetingRow | undefined, kind: MeetingEmailKind): Promise<boolean> {
  const pendingKind = kind === 'request_received' || kind === 'confirm_request';
  if (!m || m.status !== (pendingKind ? 'pending_confirmation' : 'scheduled')) return false;
  // Tracked (services/mail/outbound.ts): a reply or a bounce to a booking email is matched.
  const mailer = trackedMailer(deps, { teamId: m.team_id, meetingId: m.id, contactId: m.contact_id });
  await sendMeetingEmails(deps, { mailer, meeting: m, kind });
  if (kind === 'confirmation' || kind === 'update') await deps.db('meetings').where({ id: m.id }).update({ confirmation_email_sent: true });
  return true;
}

/** Make the video room at a provider that needs an API call (a no-op for URL rooms); idempotent. */
async function createRoom(deps: Pick<ServiceDeps, 'db' | 'config' | 'video'>, m: MeetingRow | undefined): Promise<boolean> {
  if (!m || !['scheduled', 'pending_confirmation'].includes(m.status)) return false;
  const record = async () =>
    m.event_type_id
      ? (await deps.db('event_types').where({ id: m.event_type_id }).first('ai_notes_enabled'))?.ai_notes_enabled === true
      : false;
  const adapter = deps.video.adapterOf(m.location_type);
  if (adapter === 'zoom') return (await ensureZoomMeeting(deps, { meeting: m, record: await record() })) !== 'not_connected';
  // Google Meet and Teams: the conference comes with the event written to the host's calendar.
  const conference = { google_meet: 'google', microsoft_teams: 'microsoft' } as const;
  if (adapter === 'google_meet' || adapter === 'microsoft_teams')
    return (await ensureConferenceLink(deps, { meeting: m, kind: conference[adapter] })) === 'linked';
  const provider = deps.video.providerOf(m.location_type);
  if (!m.meeting_link || !provider?.createMeeting) return false;
  await provider.createMeeting(roomOfLink(m.meeting_link), {
    title: m.title,
    start: new Date(m.start_time),
    end: new Date(m.end_time),
    record: await record(),
  });
  return true;
}

export async function loadMeetingState(deps: Pick<ServiceDeps, 'db'>, input: { meetingId: string }): Promise<MeetingState | null> {
  const m = await meeting(deps, input.meetingId);
  return m ? stateOf(m) : null;
}

/**
 * The booking workflow's first step (code version 2), run as one local activity: the video
 * room, the meeting's state, and for a scheduled meeting its first emails (the confirmation, or
 * the update after a reschedule). Answers the state and whether the host has a booking calendar
 * to write to. Safe to run again: the room is created idempotently, and a retry after a failed
 * send sends the kind again, as the activity it replaces did.
 */
export async function beginBooking(
  deps: WorkerDeps,
  input: { meetingId: string; firstKind: 'confirmation' | 'update' },
): Promise<BookingStart> {
  const m = await meeting(deps, input.meetingId);
  if (!m) return { state: null, calendar: false };
  // Zoom's join URL is written by the room step: the first email reads the meeting after it
  const current = (await createRoom(deps, m)) ? ((await meeting(deps, m.id)) ?? m) : m;
  await sendFor(deps, current, input.firstKind);
  return { state: stateOf(m), calendar: (await bookingCalendarOf(deps.db, m)) !== null };
}

/** Sends one kind of meeting email to every party, only while the meeting is in the status the kind is for; answers whether it sent. */
export async function sendMeetingEmail(deps: WorkerDeps, input: { meetingId: string; kind: MeetingEmailKind }): Promise<boolean> {
  return sendFor(deps, await meeting(deps, input.meetingId), input.kind);
}

/** The start came before the host's confirmation: cancel with reason "not confirmed" (and clean up). */
export async function cancelUnconfirmed(deps: ServiceDeps, input: { meetingId: string }): Promise<boolean> {
  return transactionWithOutbox(deps.db, deps.outbox, async (trx, enqueue) => {
    const m: MeetingRow | undefined = await trx('meetings').where({ id: input.meetingId }).forUpdate().first();
    if (!m || m.status !== 'pending_confirmation') return false;
    const updated = await setStatus(trx, { id: m.id, status: 'cancelled', extra: { cancellation_reason: 'not confirmed' } });
    await enqueueCleanup(trx, enqueue, { meeting: updated, reason: 'not confirmed', notifyAttendee: true });
    return true;
  });
}

/** After the end: scheduled → completed, unless the status changed meanwhile; the follow-up starts with it. */
export async function markCompleted(deps: Pick<ServiceDeps, 'db' | 'outbox'>, input: { meetingId: string }): Promise<boolean> {
  return transactionWithOutbox(deps.db, deps.outbox, async (trx, enqueue) => {
    const m = await trx('meetings').where({ id: input.meetingId, status: 'scheduled' }).forUpdate().first();
    if (!m) return false;
    await setStatus(trx, { id: input.meetingId, status: 'completed' });
    await enqueue(followupStart(m));
    return true;
  });
}

/** Make the video room at a provider that needs an API call (a no-op for URL rooms); idempotent. */
export async function createVideoMeeting(
  deps: Pick<ServiceDeps, 'db' | 'config' | 'video'>,
  input: { meetingId: string },
): Promise<boolean> {
  return createRoom(deps, await meeting(deps, input.meetingId));
}

export async function deleteVideoMeeting(deps: Pick<ServiceDeps, 'db' | 'config' | 'video'>, input: CleanupWorkflowInput): Promise<void> {
  if (await removeZoomMeeting(deps, { meetingId: input.meetingId })) return;
  if (input.meetingLink) await deps.video.providerOf(input.locationType)?.deleteMeeting(roomOfLink(input.meetingLink));
}

export async function deleteCalendarEvents(deps: Pick<ServiceDeps, 'db'>, input: CleanupWorkflowInput): Promise<number> {
  const { db } = deps;
  const byId = input.calendarEventIds.length ? await db('calendar_events').whereIn('id', input.calendarEventIds).delete() : 0;
  return byId + (await db('calendar_events').where({ meeting_id: input.meetingId }).delete());
}

export async function sendCancellationEmail(deps: WorkerDeps, input: CleanupWorkflowInput): Promise<boolean> {
  if (!input.notifyAttendee) return false;
  const mailer = trackedMailer(deps, { teamId: input.teamId, meetingId: input.meetingId });
  await sendCancellationEmails(deps, { ...input, mailer });
  return true;
}
