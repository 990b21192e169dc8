import type { Knex } from 'knex';
import type { Db, Executor } from '../../db/knex';

/** `label` (for operators: "step 3 (email 'Follow up')") is absent from results recorded before it existed. */
export type NextStep =
  { kind: 'step'; stepId: string; delayMs: number; label?: string } | { kind: 'end'; status: string; reason: string | null };

/** How a step is named in a workflow's current details. */
export function stepLabel(step: { position: number; channel: string; subject: string | null }): string {
  const subject = step.subject ? ` '${step.subject.length > 40 ? `${step.subject.slice(0, 39)}…` : step.subject}'` : '';
  return `step ${step.position + 1} (${step.channel}${subject})`;
}

const UNIT_MS = { minutes: 60_000, hours: 3_600_000, days: 86_400_000 } as const;

/**
 * The step an active enrollment runs next: the first live step positioned after the last one it
 * sent (the documented migration rule for edited sequences). With none left the enrollment is
 * completed here. An enrollment that is no longer active ends with its stored status.
 */
export async function nextStep(db: Db | Executor, enrollmentId: string): Promise<NextStep> {
  // One round trip: the enrollment and its next live step (lateral join).
  const r = await db('sequence_enrollments as e')
    .joinRaw(
      `LEFT JOIN LATERAL (SELECT s.id, s.delay_value, s.delay_unit, s.position, s.channel, s.subject FROM sequence_steps s
        WHERE s.sequence_id = e.sequence_id AND s.deleted_at IS NULL AND s.position > COALESCE(e.last_sent_position, -1)
        ORDER BY s.position LIMIT 1) st ON true`,
    )
    .where('e.id', enrollmentId)
    .first('e.status', 'e.exit_reason', 'st.id as step_id', 'st.delay_value', 'st.delay_unit', 'st.position', 'st.channel', 'st.subject');
  if (!r) return { kind: 'end', status: 'missing', reason: null };
  if (r.status !== 'active') return { kind: 'end', status: r.status, reason: r.exit_reason };
  if (r.step_id) return { kind: 'step', stepId: r.step_id, delayMs: delayMs(r), label: stepLabel(r) };
  const done = await db('sequence_enrollments')
    .where({ id: enrollmentId, status: 'active' })
    .update({ status: 'completed', exit_reason: 'completed', ended_at: db.fn.now(), updated_at: db.fn.now() }, ['id']);
  if (done.length === 0) return nextStep(db, enrollmentId); // ended concurrently: report what it became
  return { kind: 'end', status: 'completed', reason: 'completed' };
}

export function delayMs(step: { delay_value: number; delay_unit: string }): number {
  return step.delay_value * UNIT_MS[step.delay_unit as keyof typeof UNIT_MS];
}

/**
 * After sending (or giving up on) the step at `position`: record it as the last sent and, in the
 * same UPDATE, complete the enrollment when no live step follows; `record` (the send's own row
 * update: sent, failed, unknown) runs in the same statement. One round trip.
 */
export async function advanceAfter(
  db: Db | Executor,
  e: { id: string; sequence_id: string; last_sent_position: number | null },
  position: number,
  record?: Knex.QueryBuilder,
): Promise<NextStep> {
  const after = Math.max(e.last_sent_position ?? -1, position);
  const following = db('sequence_steps')
    .where({ sequence_id: e.sequence_id })
    .whereNull('deleted_at')
    .where('position', '>', after)
    .orderBy('position')
    .limit(1)
    .select('id', 'delay_value', 'delay_unit', 'position', 'channel', 'subject');
  const ifLast = (value: string, otherwise: string) =>
    db.raw(`CASE WHEN status = 'active' AND NOT EXISTS (SELECT 1 FROM following) THEN ${value} ELSE ${otherwise} END`);
  const advanced = db('sequence_enrollments')
    .where({ id: e.id })
    .update(
      {
        current_step: position + 1,
        last_sent_position: db.raw('GREATEST(COALESCE(last_sent_position, -1), ?)', [position]),
        updated_at: db.fn.now(),
        status: ifLast("'completed'", 'status'),
        exit_reason: ifLast("'completed'", 'exit_reason'),
        ended_at: ifLast('now()', 'ended_at'),
      },
      ['status', 'exit_reason'],
    );
  // Data-modifying CTEs run once whether or not the outer query reads them.
  const q = db.with('following', following);
  if (record) q.with('recorded', record);
  const row = await q
    .with('advanced', advanced)
    .from('advanced')
    .joinRaw('LEFT JOIN following ON true')
    .first(
      'advanced.status',
      'advanced.exit_reason',
      'following.id as step_id',
      'following.delay_value',
      'following.delay_unit',
      'following.position',
      'following.channel',
      'following.subject',
    );
  if (!row) return { kind: 'end', status: 'missing', reason: null };
  if (row.status !== 'active') return { kind: 'end', status: row.status, reason: row.exit_reason };
  return { kind: 'step', stepId: row.step_id, delayMs: delayMs(row), label: stepLabel(row) };
}
