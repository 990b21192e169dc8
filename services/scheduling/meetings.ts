import type { Db, Executor } from '../../db/knex';
import { canTransition, type MeetingStatus } from '../../domain/meeting-state';
import { transactionWithOutbox, type Enqueue } from '../../temporal/outbox';
import type { ServiceDeps } from '../deps';
import { icalUidOf } from '../../domain/ics';
import { conflict, notFound, validationFailed } from '../../core/errors';
import { onMeetingBooked } from '../sequences/hooks';
import { rescheduleMeeting } from './reschedule';
import { paginate, type Page } from '../pagination';
import { presentMeeting, presentMeetingSummary, type MeetingRow } from './present';
import { hostCalendarLink } from './feed';
import {
  bookingWorkflowId,
  cleanupWorkflowId,
  meetingCancelledSignal,
  meetingConfirmedSignal,
  type CleanupWorkflowInput,
} from '../../workflows/scheduling/contract';

export const ACTIVE_STATUSES: readonly string[] = ['pending_confirmation', 'scheduled'];

export interface MeetingFilters {
  status?: MeetingStatus;
  since?: Date;
  until?: Date;
  scheduling_page_id?: string;
}

/** Ordered by start time (DESIGN.md "Lists"), earliest first. */
export function listMeetings(db: Db, teamId: string, page: Page, f: MeetingFilters) {
  const base = db('meetings').where({ team_id: teamId });
  if (f.status) base.where({ status: f.status });
  if (f.since) base.where('start_time', '>', f.since);
  if (f.until) base.where('start_time', '<', f.until);
  if (f.scheduling_page_id) base.where({ scheduling_page_id: f.scheduling_page_id });
  return paginate(
    base,
    page,
    [
      { column: 'start_time', order: 'asc' },
      { column: 'id', order: 'asc' },
    ],
    presentMeetingSummary,
  );
}

async function meetingRow(db: Executor, teamId: string, id: string, lock = false): Promise<MeetingRow> {
  const q = db('meetings').where({ id, team_id: teamId }).first();
  const row = await (lock ? q.forUpdate() : q);
  if (!row) throw notFound('Meeting');
  return row;
}

/** A meeting for the team's own API, with the link that opens it for the host. */
export async function presentForTeam(deps: Pick<ServiceDeps, 'db' | 'config'>, m: MeetingRow) {
  return presentMeeting(m, await hostCalendarLink(deps.db, deps.config.baseUrl, m));
}

export async function readMeeting(deps: Pick<ServiceDeps, 'db' | 'config'>, teamId: string, id: string) {
  return presentForTeam(deps, await meetingRow(deps.db, teamId, id));
}

/** Enqueue the one-time cleanup (deterministic id + REJECT_DUPLICATE: a repeat start is a no-op). */
export async function enqueueCleanup(
  trx: Executor,
  enqueue: Enqueue,
  m: MeetingRow,
  opts: { reason: string | null; notifyAttendee: boolean },
): Promise<void> {
  const events = await trx('calendar_events').where({ meeting_id: m.id }).select('id');
  const coHostUserIds: string[] = await trx('meeting_hosts')
    .where({ meeting_id: m.id })
    .whereNot({ host_user_id: m.host_user_id })
    .pluck('host_user_id');
  const input: CleanupWorkflowInput = {
    meetingId: m.id,
    teamId: m.team_id,
    calendarEventIds: events.map((e: { id: string }) => e.id),
    meetingLink: m.meeting_link,
    locationType: m.location_type,
    title: m.title,
    startTime: new Date(m.start_time).toISOString(),
    endTime: new Date(m.end_time).toISOString(),
    attendeeName: m.attendee_name,
    attendeeEmail: m.attendee_email,
    hostUserId: m.host_user_id,
    reason: opts.reason,
    notifyAttendee: opts.notifyAttendee,
    guests: m.guests,
    coHostUserIds,
    icalUid: icalUidOf(m),
    icalSequence: m.ical_sequence,
    timezone: m.timezone,
    invited: m.confirmation_email_sent,
  };
  await enqueue({
    workflowType: 'meetingCleanupWorkflow',
    workflowId: cleanupWorkflowId(m.id),
    args: [input],
    searchAttributes: { TeamId: m.team_id, MeetingId: m.id, ...(m.contact_id ? { ContactId: m.contact_id } : {}) },
  });
}

/** Set a status in a transaction: keeps meeting_hosts' active flag (the exclusion guard) in step. */
export async function setStatus(
  trx: Executor,
  id: string,
  status: MeetingStatus,
  extra: Record<string, unknown> = {},
): Promise<MeetingRow> {
  const [row] = await trx('meetings')
    .where({ id })
    .update({ status, ...extra, updated_at: trx.fn.now() })
    .returning('*');
  await trx('meeting_hosts')
    .where({ meeting_id: id })
    .update({ active: ACTIVE_STATUSES.includes(status) });
  return row;
}

/**
 * PATCH: status (DESIGN.md transition table; the same status again is a no-op), notes, and
 * cancellation_reason (only together with, or on, a cancelled meeting). Anything else: 409.
 */
export async function updateMeeting(
  deps: ServiceDeps,
  teamId: string,
  id: string,
  input: { status?: MeetingStatus; notes?: string | null; cancellation_reason?: string; start_time?: string },
) {
  if (input.start_time !== undefined) {
    if (input.status !== undefined || input.cancellation_reason !== undefined || input.notes !== undefined) {
      throw validationFailed([
        { path: 'body.start_time', message: 'a reschedule (start_time) is sent alone, without status, notes or cancellation_reason' },
      ]);
    }
    const { old } = await rescheduleMeeting(deps, { meetingId: id, teamId, start: Date.parse(input.start_time) });
    return presentForTeam(deps, old);
  }
  let signal: typeof meetingCancelledSignal | typeof meetingConfirmedSignal | undefined;
  const row = await transactionWithOutbox(deps.db, deps.outbox, async (trx, enqueue) => {
    const m = await meetingRow(trx, teamId, id, true);
    const target = input.status ?? (m.status as MeetingStatus);
    const changes = target !== m.status;
    if (changes && !canTransition(m.status as MeetingStatus, target)) {
      throw conflict(`A meeting cannot move from ${m.status} to ${target}`, 'invalid_transition');
    }
    if (input.cancellation_reason !== undefined && target !== 'cancelled') {
      throw conflict('cancellation_reason can only be set when cancelling the meeting', 'invalid_transition');
    }
    const extra: Record<string, unknown> = {};
    if (input.notes !== undefined) extra.notes = input.notes;
    if (input.cancellation_reason !== undefined) extra.cancellation_reason = input.cancellation_reason;
    if (!changes) {
      if (!Object.keys(extra).length) return m;
      const [r] = await trx('meetings')
        .where({ id })
        .update({ ...extra, updated_at: trx.fn.now() })
        .returning('*');
      return r;
    }
    const updated = await setStatus(trx, id, target, extra);
    if (target === 'cancelled') {
      await enqueueCleanup(trx, enqueue, updated, { reason: updated.cancellation_reason, notifyAttendee: true });
      signal = meetingCancelledSignal;
    } else if (m.status === 'pending_confirmation' && target === 'scheduled') {
      signal = meetingConfirmedSignal;
      // a request counts as "meeting booked" for sequences only once it is confirmed
      if (updated.contact_id) await onMeetingBooked(trx, enqueue, { teamId, contactId: updated.contact_id, meetingId: id });
    }
    return updated;
  });
  if (signal) await deps.outbox.signal(bookingWorkflowId(id), signal);
  return presentForTeam(deps, row);
}

/** DELETE: the record goes; a meeting still to happen gets the cleanup (video, calendar, email). */
export async function deleteMeeting(deps: ServiceDeps, teamId: string, id: string): Promise<void> {
  await transactionWithOutbox(deps.db, deps.outbox, async (trx, enqueue) => {
    const m = await meetingRow(trx, teamId, id, true);
    await enqueueCleanup(trx, enqueue, m, { reason: 'deleted', notifyAttendee: ACTIVE_STATUSES.includes(m.status) });
    await trx('meetings').where({ id }).delete();
  });
  await deps.outbox.signal(bookingWorkflowId(id), meetingCancelledSignal);
}
