import type { Db } from '../../db/knex';
import { findSequence, liveSteps } from './authoring';

/**
 * Counts per sequence (enrollments by status) and per live step (from the sends: SMTP
 * acceptance or provider delivery report, open pixel, click redirect, bounce and failure).
 */
export async function sequenceAnalytics(db: Db, teamId: string, sequenceId: string) {
  await findSequence(db, teamId, sequenceId);
  const [byStatus, steps, sends] = await Promise.all([
    db('sequence_enrollments').where({ sequence_id: sequenceId }).groupBy('status').select('status').count({ n: '*' }),
    liveSteps(db, sequenceId),
    db('sequence_sends')
      .where({ sequence_id: sequenceId })
      .groupBy('step_id')
      .select('step_id')
      .select(
        db.raw(`count(*) FILTER (WHERE status IN ('sent', 'unknown')) AS sent`),
        db.raw('count(delivered_at) AS delivered'),
        db.raw('count(opened_at) AS opened'),
        db.raw('count(clicked_at) AS clicked'),
        db.raw('count(bounced_at) AS bounced'),
        db.raw(`count(*) FILTER (WHERE status = 'failed' OR failed_at IS NOT NULL) AS failed`),
      ),
  ]);
  const n = (s: string) => Number((byStatus as Array<{ status: string; n: number }>).find((r) => r.status === s)?.n ?? 0);
  const bySend = new Map((sends as Array<Record<string, unknown>>).map((r) => [r.step_id as string, r]));
  const total = (byStatus as Array<{ n: number }>).reduce((a, r) => a + Number(r.n), 0);
  return {
    enrolled: total - n('skipped'),
    active: n('active'),
    completed: n('completed'),
    exited: n('exited'),
    skipped: n('skipped'),
    steps: steps.map((s) => {
      const r = bySend.get(s.id) ?? {};
      const c = (k: string) => Number(r[k] ?? 0);
      return {
        step_id: s.id,
        position: s.position,
        channel: s.channel,
        sent: c('sent'),
        delivered: c('delivered'),
        opened: c('opened'),
        clicked: c('clicked'),
        bounced: c('bounced'),
        failed: c('failed'),
      };
    }),
  };
}
