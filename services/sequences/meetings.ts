import type { Executor } from '../../db/knex';

/**
 * Statuses that do not count as "meeting booked": a cancelled meeting never does, and a request
 * waiting for the host's confirmation only does once confirmed (services/scheduling/meetings.ts).
 */
const NOT_BOOKED = ['cancelled', 'pending_confirmation'];

/**
 * Contacts (of `contactIds`) with a meeting that counts as "booked": any status except
 * `cancelled` and `pending_confirmation`.
 */
export async function contactsWithBookedMeeting(
  trx: Executor,
  { teamId, contactIds }: { teamId: string; contactIds: string[] },
): Promise<Set<string>> {
  if (contactIds.length === 0) return new Set();
  const rows: Array<{ contact_id: string | null }> = await trx('meetings')
    .distinct('contact_id')
    .where('team_id', teamId)
    .whereIn('contact_id', contactIds)
    .whereNotIn('status', NOT_BOOKED);
  return new Set(rows.flatMap((r) => (r.contact_id ? [r.contact_id] : [])));
}

/** False when the meeting exists and is cancelled or still waiting for the host's confirmation (`knownStatus`: the caller just wrote it). */
export async function meetingCounts(
  trx: Executor,
  { teamId, meetingId, knownStatus }: { teamId: string; meetingId: string; knownStatus?: string },
): Promise<boolean> {
  if (knownStatus !== undefined) return !NOT_BOOKED.includes(knownStatus);
  const m = await trx('meetings').where({ team_id: teamId, id: meetingId }).first('status');
  return !m || !NOT_BOOKED.includes(m.status);
}
