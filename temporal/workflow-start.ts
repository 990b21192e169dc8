import type { WorkflowStarts } from '../workflows/starts';
import type { SearchAttributeName } from './search-attributes';

/** The worker's workflows, by name, as the contracts declare them (nothing of the worker is loaded here). */
type Workflows = WorkflowStarts;
export type WorkflowName = {
  [K in keyof Workflows]: Workflows[K] extends (...args: any[]) => Promise<unknown> ? K : never;
}[keyof Workflows];

/** A workflow's arguments, as its contract declares them. */
export type WorkflowArgs<K extends WorkflowName> = Parameters<Workflows[K]>;

/**
 * A workflow start, checked against the workflow's own signature: a wrong name or argument is a
 * compile error (test/foundation/outbox-types.test.ts).
 */
export type WorkflowStart<K extends WorkflowName = WorkflowName> = { [N in K]: WorkflowStartOf<N> }[K];

interface WorkflowStartOf<K extends WorkflowName> {
  workflowType: K;
  /** Deterministic id (`enrollment-<id>`, `booking-<meeting_id>`, …): starting twice is harmless. */
  workflowId: string;
  args: WorkflowArgs<K>;
  searchAttributes?: Partial<Record<SearchAttributeName, string>>;
  memo?: Record<string, unknown>;
  taskQueue?: string;
  /** Delay the workflow's first task until this time (Temporal startDelay). */
  startAt?: Date;
  /**
   * Temporal user metadata (docs/operators.md): a one-line summary naming the person and the thing
   * (`staticSummary`), and Markdown details with ids, the team and API paths (`staticDetails`).
   */
  summary?: string;
  details?: string;
}
