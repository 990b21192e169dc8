import type { Executor } from '../../db/knex';
import type { Enqueue } from '../../temporal/outbox';
import { exitEnrollments } from '../sequence-exits/exits';
import { meetingCounts } from './meetings';

/**
 * Called by the scheduling feature inside the booking transaction when a (non-cancelled)
 * meeting is booked for a contact: exits the contact's active enrollments whose sequence has
 * `exit_on_meeting_booked`.
 */
export async function onMeetingBooked(
  trx: Executor,
  enqueue: Enqueue,
  input: { teamId: string; contactId: string; meetingId: string; status?: string },
): Promise<void> {
  if (!(await meetingCounts(trx, { teamId: input.teamId, meetingId: input.meetingId, knownStatus: input.status }))) return;
  await exitEnrollments(trx, enqueue, {
    teamId: input.teamId,
    contactId: input.contactId,
    sequenceWhere: (q) => q.where('exit_on_meeting_booked', true),
    reason: 'meeting_booked',
    detail: { meeting_id: input.meetingId },
  });
}

/** Called when a contact is deleted (contacts feature), inside its transaction. */
export async function onContactDeleted(trx: Executor, enqueue: Enqueue, input: { teamId: string; contactId: string }): Promise<void> {
  await exitEnrollments(trx, enqueue, { teamId: input.teamId, contactId: input.contactId, reason: 'contact_deleted' });
}
