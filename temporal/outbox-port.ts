import type { SignalDefinition } from '@temporalio/common';
import type { WorkflowName, WorkflowStart } from './workflow-start';

/**
 * What a use case sees of the outbox: the port behind `transactionWithOutbox` and best-effort
 * signals. The concrete starter (temporal/outbox.ts `OutboxStarter`, which puts the relay, the
 * direct handlers and the starts together) is built by the entry points and never reached through this port.
 */
export interface OutboxPort {
  /** The task queue a start goes to when it names none. */
  readonly taskQueue: string;
  /** Start the workflows of these committed outbox rows now (the fast path); the relay retries the rest. */
  kick(ids: number[]): void;
  /** Best-effort signal to a running workflow, right after a commit; never throws. */
  signal<Args extends any[]>(workflowId: string, def: SignalDefinition<Args>, ...args: Args): Promise<boolean>;
  /** Signal a workflow, starting it first when no run is open ("sync now" on a workflow an operator terminated). Throws when Temporal cannot be reached. */
  signalWithStart<K extends WorkflowName>(start: WorkflowStart<K>, signal: SignalDefinition<[]>): Promise<void>;
  /** Whether the workflow has an open run. Throws when Temporal cannot be reached. */
  isRunning(workflowId: string): Promise<boolean>;
}
