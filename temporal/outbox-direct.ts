import type { Db } from '../db/knex';
import { logger } from '../core/logger';
import type { WorkflowArgs, WorkflowName } from './workflow-start';
import { DoneMarker } from './outbox-done';
import type { OutboxRow, RowStarter } from './outbox-start';

/**
 * Outbox rows the worker's relay handles itself before any workflow start (a webhook delivery's
 * first attempt: docs/webhooks.md "First attempt"). The relay leases such a row, hands it to the
 * handler registered for its workflow type, and then either marks it done (no workflow at all) or
 * starts the workflow with the arguments the handler returns. A worker lost in between leaves the
 * lease to expire; the next lease runs the handler again (`lease` tells it which one it is).
 */
export interface DirectRow<K extends WorkflowName> {
  id: number;
  workflowId: string;
  /** The arguments the row's workflow would start with (the row was enqueued as a `WorkflowStart<K>`). */
  args: WorkflowArgs<K>;
  /** 1 for the first lease of the row; more means an earlier holder was lost. */
  lease: number;
  /** Aborted shortly before the lease runs out: the handler must stop before another worker may start. */
  signal: AbortSignal;
}

/** `done`: nothing left, no workflow. `start`: start the row's workflow with these arguments. */
export type DirectOutcome<K extends WorkflowName> = { done: true } | { start: WorkflowArgs<K> };

/** The direct handler of rows of workflow `K`: a wrong workflow's handler is a compile error. */
export type DirectHandler<K extends WorkflowName> = (row: DirectRow<K>) => Promise<DirectOutcome<K>>;

/**
 * The handlers by workflow type, with a window: at most `window` rows are handled at once in this
 * process; leased rows beyond what the endpoints can take would only wait in memory. When the
 * window was full and half of it is free again, `onRoom` wakes the relay loop.
 */
export class DirectRegistry {
  private readonly handlers: { [K in WorkflowName]?: DirectHandler<K> } = {};
  private inFlight = 0;
  private wasFull = false;
  private readonly settled: Array<() => void> = [];
  private readonly done = new DoneMarker(async (pairs) => {
    try {
      await this.db('outbox')
        .whereIn(['id', 'leases'], pairs)
        .whereNull('started_at')
        .update({ started_at: this.db.fn.now(), lease_until: null });
    } catch (err) {
      logger.warn({ err }, 'outbox: marking relayed rows failed; their leases will expire');
    }
  });

  constructor(
    private readonly db: Db,
    private readonly starter: RowStarter,
    private readonly leaseMs: number,
    readonly window: number,
    private readonly onRoom: () => void,
  ) {}

  set<K extends WorkflowName>(workflowType: K, handler: DirectHandler<K>): void {
    this.handlers[workflowType] = handler as (typeof this.handlers)[K];
  }

  /** The workflow types with a handler. */
  types(): string[] {
    return Object.keys(this.handlers);
  }

  /** Whether the relay hands this row to a handler: its type has one, and no handler has finished with it yet. */
  takes(row: OutboxRow): boolean {
    return Object.hasOwn(this.handlers, row.workflow_type) && row.relayed_at === null;
  }

  /** Whether the window is full (the relay then leaves direct rows alone until `onRoom`). */
  full(): boolean {
    if (this.inFlight < this.window) return false;
    this.wasFull = true;
    return true;
  }

  /** Wait until the rows being handled are finished (graceful shutdown). */
  async drain(): Promise<void> {
    while (this.inFlight > 0) await new Promise<void>((resolve) => this.settled.push(resolve));
    await this.done.flush();
  }

  /** Run a leased row's handler (not awaited), then mark it done or start its workflow; never throws. */
  handle(row: OutboxRow): void {
    this.inFlight++;
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), Math.max(1000, this.leaseMs - 3000));
    void (async () => {
      try {
        const outcome = await this.run(row.workflow_type as WorkflowName, row, abort.signal);
        if ('done' in outcome) return this.done.add(row.id, row.leases);
        // The direct part is over: what is left is an ordinary start, with the handler's arguments.
        const n = await this.db('outbox')
          .where({ id: row.id, leases: row.leases })
          .whereNull('started_at')
          .update({ args: JSON.stringify(outcome.start), relayed_at: this.db.fn.now(), lease_until: null });
        if (n === 0) return; // leased again by another relay meanwhile: it takes over
        const result = await this.starter.startOne(await this.starter.client(), { ...row, args: outcome.start });
        if (result === true) await this.db('outbox').where({ id: row.id }).update({ started_at: this.db.fn.now(), lease_until: null });
        else
          await this.db('outbox')
            .where({ id: row.id })
            .update({ attempts: this.db.raw('attempts + 1'), last_error: result });
      } catch (err) {
        logger.warn({ err, outboxId: row.id }, 'outbox: direct handling failed; the lease will expire and the relay retries');
      } finally {
        clearTimeout(timer);
        this.inFlight--;
        for (const resolve of this.settled.splice(0)) resolve();
        if (this.wasFull && this.inFlight <= this.window / 2) {
          this.wasFull = false;
          this.onRoom();
        }
      }
    })();
  }

  /**
   * The one place a row's stored JSON meets its handler's types: every row of type `K` was written
   * from a `WorkflowStart<K>` (temporal/outbox-writer.ts), so its arguments are `WorkflowArgs<K>`.
   */
  private run<K extends WorkflowName>(workflowType: K, row: OutboxRow, signal: AbortSignal): Promise<DirectOutcome<K>> {
    const handler = this.handlers[workflowType] as DirectHandler<K>;
    return handler({ id: row.id, workflowId: row.workflow_id, args: row.args as WorkflowArgs<K>, lease: row.leases, signal });
  }
}
