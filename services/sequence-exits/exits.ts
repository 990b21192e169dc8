import type { Executor } from '../../db/knex';
import type { ExitReason } from '../../domain/exit-reasons';
import type { Enqueue } from '../../temporal/outbox';
import { signalEnrollments } from './signals';

export interface ExitFilter {
  teamId: string;
  enrollmentIds?: string[];
  contactId?: string;
  contactIds?: string[];
  sequenceId?: string;
  /** Only enrollments whose sequence matches (e.g. `exit_on_meeting_booked`). */
  sequenceWhere?: (q: ReturnType<Executor>) => void;
}

export interface ExitInput extends ExitFilter {
  reason: ExitReason;
  detail?: Record<string, unknown> | null;
}

/**
 * Exit the matching active enrollments in the caller's transaction (status, reason, detail),
 * then signal their workflows after the commit. Returns the exited ids.
 */
export async function exitEnrollments(trx: Executor, enqueue: Enqueue, input: ExitInput): Promise<string[]> {
  const { reason, detail = null, ...filter } = input;
  const q = trx('sequence_enrollments').where({ team_id: filter.teamId, status: 'active' });
  if (filter.enrollmentIds) q.whereIn('id', filter.enrollmentIds);
  if (filter.contactId) q.where('contact_id', filter.contactId);
  if (filter.contactIds) q.whereIn('contact_id', filter.contactIds);
  if (filter.sequenceId) q.where('sequence_id', filter.sequenceId);
  if (filter.sequenceWhere) {
    const where = filter.sequenceWhere;
    q.whereIn('sequence_id', function (this: ReturnType<Executor>) {
      this.select('id').from('sequences').where('team_id', filter.teamId);
      where(this);
    });
  }
  const rows: Array<{ id: string }> = await q.update(
    {
      status: 'exited',
      exit_reason: reason,
      exit_detail: detail ? JSON.stringify(detail) : null,
      ended_at: trx.fn.now(),
      updated_at: trx.fn.now(),
    },
    ['id'],
  );
  const ids = rows.map((r) => r.id);
  if (ids.length > 0) await signalEnrollments(enqueue, { teamId: filter.teamId, enrollmentIds: ids, signal: { name: 'exit', reason } });
  return ids;
}
