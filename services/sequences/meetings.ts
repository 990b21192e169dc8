import type { Executor } from '../../db/knex';

/**
 * Statuses that do not count as "meeting booked": a cancelled meeting never does, and a request
 * waiting for the host's confirmation only does once confirmed (services/scheduling/meetings.ts).
 */
const NOT_BOOKED = ['cancelled', 'pending_confirmation'];

/**
 * Contacts (of `contactIds`) with a meeting that counts as "booked": any status except
 * `cancelled` and `pending_confirmation`. Reads the scheduling feature's `meetings` table; before it exists, nobody has one.
 */
export async function contactsWithBookedMeeting(trx: Executor, teamId: string, contactIds: string[]): Promise<Set<string>> {
  if (contactIds.length === 0) return new Set();
  const exists = await trx.raw(`SELECT to_regclass('public.meetings') IS NOT NULL AS ok`);
  if (!exists.rows[0].ok) return new Set();
  const rows: Array<{ contact_id: string | null }> = await trx('meetings')
    .distinct('contact_id')
    .where('team_id', teamId)
    .whereIn('contact_id', contactIds)
    .whereNotIn('status', NOT_BOOKED);
  return new Set(rows.flatMap((r) => (r.contact_id ? [r.contact_id] : [])));
}

/** False when the meeting exists and is cancelled or still waiting for the host's confirmation. */
export async function meetingCounts(trx: Executor, teamId: string, meetingId: string): Promise<boolean> {
  const exists = await trx.raw(`SELECT to_regclass('public.meetings') IS NOT NULL AS ok`);
  if (!exists.rows[0].ok) return true;
  const m = await trx('meetings').where({ team_id: teamId, id: meetingId }).first('status');
  return !m || !NOT_BOOKED.includes(m.status);
}
