import type { OutboxRow as OutboxTableRow } from '../db/tables';
import { WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy, type Client } from '@temporalio/client';
import type { Db, Executor } from '../db/knex';
import { toTypedSearchAttributes } from './search-attributes';

/** The columns the relay and the fast path read (db/tables.ts `OutboxRow`). */
export type OutboxRow = Pick<
  OutboxTableRow,
  | 'id'
  | 'workflow_type'
  | 'workflow_id'
  | 'task_queue'
  | 'args'
  | 'search_attributes'
  | 'memo'
  | 'start_at'
  | 'leases'
  | 'attempts'
  | 'relayed_at'
  | 'summary'
  | 'details'
>;

/**
 * Starts the workflows of outbox rows with at most `maxConcurrentStarts` start RPCs in flight
 * from this process (fast path, relay and direct handlers together): starts that outrun the
 * worker back its tasks up in the server, and a small Temporal server then completes fewer
 * workflows a second (config TEMPORAL_MAX_CONCURRENT_STARTS; docs/webhooks.md, "Workflow start
 * rate"). A workflow id is never reused, so a start that already happened counts as started.
 */
export class RowStarter {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly db: Db,
    readonly client: () => Promise<Client>,
    readonly maxConcurrentStarts: number,
    /** Ask for eager workflow start: the client shares the worker's connection (worker process only). */
    private readonly eager = false,
  ) {}

  private async slot(): Promise<void> {
    if (this.active < this.maxConcurrentStarts) {
      this.active++;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next)
      next(); // the slot passes straight to the next waiter
    else this.active--;
  }

  /** Start one row's workflow: `true` when it runs (or already did), else the error, cut to 500 characters. */
  async startOne(client: Client, row: OutboxRow): Promise<true | string> {
    await this.slot();
    try {
      await client.workflow.start(row.workflow_type, {
        workflowId: row.workflow_id,
        taskQueue: row.task_queue,
        args: row.args,
        typedSearchAttributes: toTypedSearchAttributes(row.search_attributes),
        memo: row.memo,
        ...(row.summary ? { staticSummary: row.summary } : {}),
        ...(row.details ? { staticDetails: row.details } : {}),
        workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
        // Eager start hands the first workflow task straight back to this process's worker: no
        // task queue round trip, and starts cannot outrun the worker (docs/decisions.md).
        ...(this.eager && !row.start_at ? { requestEagerStart: true } : {}),
        ...(row.start_at && row.start_at.getTime() > Date.now() ? { startDelay: row.start_at.getTime() - Date.now() } : {}),
      });
      return true;
    } catch (err) {
      return err instanceof WorkflowExecutionAlreadyStartedError ? true : String(err).slice(0, 500);
    } finally {
      this.release();
    }
  }

  /**
   * Start the rows; started rows are marked in batches (one UPDATE per 200), failed ones get their
   * error and an attempt more. Returns how many started.
   */
  async startRows(rows: OutboxRow[], trx: Executor = this.db): Promise<number> {
    if (rows.length === 0) return 0;
    const client = await this.client();
    let started = 0;
    let pending: number[] = [];
    const flush = async () => {
      const ids = pending;
      pending = [];
      if (ids.length) await trx('outbox').whereIn('id', ids).update({ started_at: trx.fn.now(), lease_until: null });
    };
    const writes: Array<Promise<unknown>> = [];
    await Promise.all(
      rows.map(async (row) => {
        const outcome = await this.startOne(client, row);
        if (outcome !== true) {
          writes.push(
            trx('outbox')
              .where({ id: row.id })
              .update({ attempts: trx.raw('attempts + 1'), last_error: outcome, lease_until: null }), // the next pass tries again
          );
          return;
        }
        started++;
        pending.push(row.id);
        if (pending.length >= 200) writes.push(flush());
      }),
    );
    writes.push(flush());
    await Promise.all(writes);
    return started;
  }
}
