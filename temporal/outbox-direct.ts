/**
 * Outbox rows the worker's relay handles itself before any workflow start (a webhook delivery's
 * first attempt: docs/webhooks.md "First attempt"). The relay leases such a row, hands it to the
 * handler registered for its workflow type, and then either marks it done (no workflow at all) or
 * starts the workflow with the arguments the handler returns. A worker lost in between leaves the
 * lease to expire; the next lease runs the handler again (`lease` tells it which one it is).
 */
export interface DirectRow {
  id: number;
  workflowId: string;
  args: unknown[];
  /** 1 for the first lease of the row; more means an earlier holder was lost. */
  lease: number;
  /** Aborted shortly before the lease runs out: the handler must stop before another worker may start. */
  signal: AbortSignal;
}

/** `done`: nothing left, no workflow. `start`: start the row's workflow with these arguments. */
export type DirectOutcome = { done: true } | { start: unknown[] };

export type DirectHandler = (row: DirectRow) => Promise<DirectOutcome>;

/**
 * Collects the ids of rows finished without a workflow and marks them in one UPDATE per batch
 * (at most every `delayMs`), fenced by the lease number: a row leased again since is left alone.
 * A batch lost in a crash only means those rows are handled again after their lease (and find
 * nothing left to do).
 */
export class DoneMarker {
  private pending: Array<[number, number]> = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly write: (pairs: Array<[number, number]>) => Promise<void>,
    private readonly delayMs = 20,
    private readonly batch = 200,
  ) {}

  add(id: number, lease: number): void {
    this.pending.push([id, lease]);
    if (this.pending.length >= this.batch)
      void this.flush(); // errors are handled in flush
    else this.timer ??= setTimeout(() => void this.flush(), this.delayMs);
  }

  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const pairs = this.pending;
    this.pending = [];
    if (pairs.length > 0) this.flushing = this.flushing.then(() => this.write(pairs));
    return this.flushing;
  }
}
