/** A meeting's status and what follows from it: the host rows' active flag, and the cleanup of a meeting that ends. */
import type { Executor } from '../../db/knex';
import type { MeetingStatus } from '../../domain/meeting-state';
import { icalUidOf } from '../../domain/ics';
import type { Enqueue } from '../../temporal/outbox';
import type { CleanupWorkflowInput } from '../../workflows/scheduling/contract';
import type { MeetingRow } from '../meetings/row';
import { cleanupStart } from './workflow-metadata';

/** Statuses in which a meeting's host rows block the host's time. */
export const ACTIVE_STATUSES: readonly string[] = ['pending_confirmation', 'scheduled'];

/** Set a status in a transaction: keeps meeting_hosts' active flag (the exclusion guard) in step. */
export async function setStatus(
  trx: Executor,
  input: { id: string; status: MeetingStatus; extra?: Record<string, unknown> },
): Promise<MeetingRow> {
  const { id, status, extra = {} } = input;
  const [row] = await trx('meetings')
    .where({ id })
    .update({ status, ...extra, updated_at: trx.fn.now() })
    .returning('*');
  await trx('meeting_hosts')
    .where({ meeting_id: id })
    .update({ active: ACTIVE_STATUSES.includes(status) });
  return row;
}

/** Enqueue the one-time cleanup (deterministic id + REJECT_DUPLICATE: a repeat start is a no-op). */
export async function enqueueCleanup(
  trx: Executor,
  enqueue: Enqueue,
  input: { meeting: MeetingRow; reason: string | null; notifyAttendee: boolean },
): Promise<void> {
  const { meeting: m, ...opts } = input;
  const events = await trx('calendar_events').where({ meeting_id: m.id }).select('id');
  const coHostUserIds: string[] = await trx('meeting_hosts')
    .where({ meeting_id: m.id })
    .whereNot({ host_user_id: m.host_user_id })
    .pluck('host_user_id');
  const cleanup: CleanupWorkflowInput = {
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
  await enqueue(cleanupStart(m, cleanup));
}
