import type { ServiceDeps } from '../deps';

/** Ids of the contact's meetings (any status), earliest first. Used by the contact detail. */
export async function listContactMeetingIds(
  deps: Pick<ServiceDeps, 'db'>,
  input: { teamId: string; contactId: string },
): Promise<string[]> {
  const { db } = deps;
  const { teamId, contactId } = input;
  const rows = await db('meetings')
    .where({ team_id: teamId, contact_id: contactId })
    .orderBy([{ column: 'start_time' }, { column: 'id' }])
    .select('id');
  return rows.map((r: { id: string }) => r.id);
}
