import { randomUUID } from 'node:crypto';
import type { Enqueue } from '../../temporal/outbox';
import { enrollmentWorkflowId, type EnrollmentSignal } from '../../workflows/sequences/contract';

const BATCH = 500;

/**
 * Deliver a signal to running enrollment workflows, durably: an outbox row (in the caller's
 * transaction) starts a small workflow that signals each `enrollment-<id>` after the commit.
 * A workflow that already ended is skipped. The enrollment workflows also re-check the database
 * before every send, so a lost signal can never cause a wrong message.
 */
export async function signalEnrollments(
  enqueue: Enqueue,
  { teamId, enrollmentIds, signal }: { teamId: string; enrollmentIds: string[]; signal: EnrollmentSignal },
): Promise<void> {
  for (let i = 0; i < enrollmentIds.length; i += BATCH) {
    const ids = enrollmentIds.slice(i, i + BATCH);
    await enqueue({
      workflowType: 'sequenceSignalsWorkflow',
      workflowId: `enrollment-signals-${randomUUID()}`,
      args: [{ workflowIds: ids.map(enrollmentWorkflowId), signal }],
      searchAttributes: { TeamId: teamId },
      memo: { signal: signal.name, count: ids.length },
      summary: `Signal ${signal.name}${signal.name === 'exit' ? ` (${signal.reason})` : ''} to ${ids.length} enrollment(s)`,
      details: `Delivers \`${signal.name}\` to each \`enrollment-<id>\` listed in its input; one that ended is skipped.\n\n- **Team**: \`${teamId}\``,
    });
  }
}
