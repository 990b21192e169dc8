/**
 * The `calendar-sync-<id>` workflow from the API's and the reconcile's side (docs/calendars.md, "When the
 * sync stops"): signal-with-start, so that "sync now" and every change to a connection reach a workflow
 * even when it is gone (terminated by an operator, lost with its history); and whether one is running.
 */
import { WorkflowIdReusePolicy, WorkflowNotFoundError } from '@temporalio/client';
import { logger } from '../../core/logger';
import { toTypedSearchAttributes } from '../../temporal/search-attributes';
import { calendarSyncNowSignal, calendarSyncWorkflowId, type CalendarSyncInput } from '../../workflows/calendars/contract';
import type { ServiceDeps } from '../deps';

export interface SyncTarget {
  id: string;
  team_id: string;
  user_id: string;
  kind: string;
}

/**
 * Sync now: signals the connection's workflow, starting a new run first when none is running (the id
 * is reused after a run that ended). Throws when Temporal cannot be reached.
 */
export async function signalSyncNow(deps: Pick<ServiceDeps, 'outbox'>, conn: SyncTarget): Promise<void> {
  const client = await deps.outbox.temporal();
  const input: CalendarSyncInput = { connectionId: conn.id, teamId: conn.team_id, userId: conn.user_id };
  await client.workflow.signalWithStart('calendarSyncWorkflow', {
    workflowId: calendarSyncWorkflowId(conn.id),
    taskQueue: deps.outbox.taskQueue,
    args: [input],
    signal: calendarSyncNowSignal,
    signalArgs: [],
    workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
    typedSearchAttributes: toTypedSearchAttributes({ TeamId: conn.team_id, UserId: conn.user_id }),
    memo: { kind: conn.kind },
  });
}

/** signalSyncNow for the API: a Temporal that cannot be reached is logged, and the reconcile starts the sync later. */
export async function requestSyncSoon(deps: Pick<ServiceDeps, 'outbox'>, conn: SyncTarget): Promise<boolean> {
  try {
    await signalSyncNow(deps, conn);
    return true;
  } catch (err) {
    logger.warn({ err, connectionId: conn.id }, 'calendar sync: signal-with-start failed; the reconcile will start it');
    return false;
  }
}

/** Whether the connection's workflow has a run that is open. */
export async function syncWorkflowRunning(deps: Pick<ServiceDeps, 'outbox'>, connectionId: string): Promise<boolean> {
  const client = await deps.outbox.temporal();
  try {
    const d = await client.workflow.getHandle(calendarSyncWorkflowId(connectionId)).describe();
    return d.status.name === 'RUNNING';
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return false;
    throw err;
  }
}
