/**
 * Observable points in a workflow's history, for tests that prove something did NOT happen: instead
 * of waiting a while and finding nothing, wait until the workflow has reached its timer, move the
 * time-skipping clock past the moment, and read from the history that the timer has not fired and
 * the activity was never scheduled.
 */
import type { WorkflowHandle } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { sleep } from '../../core/processes';

const T = temporal.api.enums.v1.EventType;

const ms = (d: { seconds?: unknown; nanos?: number | null } | null | undefined) =>
  d ? Number(d.seconds ?? 0) * 1000 + Math.floor((d.nanos ?? 0) / 1e6) : 0;

export interface HistoryFacts {
  /** Timers started and neither fired nor cancelled: when each was started and when it would fire (epoch ms, the server's clock). */
  pendingTimers: Array<{ timerId: string; startedAt: number; firesAt: number }>;
  /** Ids of timers that fired. */
  firedTimers: string[];
  /** Activity types scheduled, in order. */
  activities: string[];
  /** Signals received (WorkflowExecutionSignaled events). */
  signals: number;
  /** Whether the workflow has closed (completed, failed, cancelled, terminated, timed out, continued as new). */
  closed: boolean;
}

/** What the history says now. */
export async function historyFacts(handle: WorkflowHandle): Promise<HistoryFacts> {
  const { events } = await handle.fetchHistory();
  const started = new Map<string, { startedAt: number; firesAt: number }>();
  const fired: string[] = [];
  const activities: string[] = [];
  let signals = 0;
  let closed = false;
  for (const e of events ?? []) {
    const at = ms(e.eventTime);
    if (e.eventType === T.EVENT_TYPE_TIMER_STARTED) {
      const a = e.timerStartedEventAttributes!;
      started.set(a.timerId!, { startedAt: at, firesAt: at + ms(a.startToFireTimeout) });
    } else if (e.eventType === T.EVENT_TYPE_TIMER_FIRED) {
      fired.push(e.timerFiredEventAttributes!.timerId!);
      started.delete(e.timerFiredEventAttributes!.timerId!);
    } else if (e.eventType === T.EVENT_TYPE_TIMER_CANCELED) {
      started.delete(e.timerCanceledEventAttributes!.timerId!);
    } else if (e.eventType === T.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED) {
      signals++;
    } else if (e.eventType === T.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED) {
      activities.push(e.activityTaskScheduledEventAttributes!.activityType!.name!);
    } else if (
      [
        T.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED,
        T.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED,
        T.EVENT_TYPE_WORKFLOW_EXECUTION_CANCELED,
        T.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED,
        T.EVENT_TYPE_WORKFLOW_EXECUTION_TIMED_OUT,
        T.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW,
      ].includes(e.eventType!)
    ) {
      closed = true;
    }
  }
  return { pendingTimers: [...started].map(([timerId, t]) => ({ timerId, ...t })), firedTimers: fired, activities, signals, closed };
}

/** Polls the history (every 50 ms, up to `timeoutMs`) until `ready` holds; answers those facts. */
export async function historyReaches(
  handle: WorkflowHandle,
  ready: (f: HistoryFacts) => boolean,
  what: string,
  timeoutMs = 20_000,
): Promise<HistoryFacts> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const f = await historyFacts(handle);
    if (ready(f)) return f;
    if (Date.now() > deadline) throw new Error(`workflow ${handle.workflowId} did not reach: ${what} (${JSON.stringify(f)})`);
    await sleep(50);
  }
}
