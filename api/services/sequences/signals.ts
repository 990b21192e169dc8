import { randomUUID } from 'node:crypto';
import type { WorkflowStart } from '../../../temporal/outbox';

export type Enqueue = (start: WorkflowStart) => Promise<void>;

export const ENROLLMENT_WORKFLOW = 'sequenceEnrollmentWorkflow';
export const SIGNALS_WORKFLOW = 'sequenceSignalsWorkflow';

export const enrollmentWorkflowId = (enrollmentId: string) => `enrollment-${enrollmentId}`;

/** What the signalling workflow delivers to each `enrollment-<id>` workflow. */
export type EnrollmentSignal = { name: 'exit'; reason: string } | { name: 'resume' };

const BATCH = 500;

/**
 * Deliver a signal to running enrollment workflows, durably: an outbox row (in the caller's
 * transaction) starts a small workflow that signals each `enrollment-<id>` after the commit.
 * A workflow that already ended is skipped. The enrollment workflows also re-check the database
 * before every send, so a lost signal can never cause a wrong message.
 */
export async function signalEnrollments(
  enqueue: Enqueue,
  teamId: string,
  enrollmentIds: string[],
  signal: EnrollmentSignal,
): Promise<void> {
  for (let i = 0; i < enrollmentIds.length; i += BATCH) {
    const ids = enrollmentIds.slice(i, i + BATCH);
    await enqueue({
      workflowType: SIGNALS_WORKFLOW,
      workflowId: `enrollment-signals-${randomUUID()}`,
      args: [{ workflowIds: ids.map(enrollmentWorkflowId), signal }],
      searchAttributes: { TeamId: teamId },
      memo: { signal: signal.name, count: ids.length },
    });
  }
}
