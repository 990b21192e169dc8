import { presentEnrollment, type EnrollmentRow } from './present';
import type { ServiceDeps } from '../deps';

/** The contact's enrollments (newest first) for the contact detail, with friendly exit labels. */
export async function listContactEnrollments(deps: Pick<ServiceDeps, 'db'>, { teamId, contactId }: { teamId: string; contactId: string }) {
  const { db } = deps;
  const rows: EnrollmentRow[] = await db('sequence_enrollments')
    .where({ team_id: teamId, contact_id: contactId })
    .orderBy([
      { column: 'enrolled_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(200);
  return rows.map(presentEnrollment);
}
