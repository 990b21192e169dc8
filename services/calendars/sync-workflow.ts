/**
 * The `calendar-sync-<id>` workflow from the API's and the reconcile's side (docs/calendars.md, "When the
 * sync stops"): signal-with-start, so that "sync now" and every change to a connection reach a workflow
 * even when it is gone (terminated by an operator, lost with its history); and whether one is running.
 */
import { logger } from '../../core/logger';
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
  const input: CalendarSyncInput = { connectionId: conn.id, teamId: conn.team_id, userId: conn.user_id };
  await deps.outbox.signalWithStart(
    {
      workflowType: 'calendarSyncWorkflow',
      workflowId: calendarSyncWorkflowId(conn.id),
      args: [input],
      searchAttributes: { TeamId: conn.team_id, UserId: conn.user_id },
      memo: { kind: conn.kind },
    },
    calendarSyncNowSignal,
  );
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
  return deps.outbox.isRunning(calendarSyncWorkflowId(connectionId));
}
