import type { OutboxRow as OutboxTableRow } from '../db/tables';
import { WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy, WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { SignalDefinition } from '@temporalio/common';
import type { Db, Executor } from '../db/knex';
import { logger } from '../core/logger';
import type { WorkflowName, WorkflowStart } from './workflow-start';
import { toTypedSearchAttributes } from './search-attributes';
import { DoneMarker, type DirectHandler } from './outbox-direct';
import type { OutboxPort } from './outbox-port';

export type { OutboxPort };
export { enqueueWorkflow, enqueueWorkflows, transactionWithOutbox, type Enqueue } from './outbox-writer';

export type { WorkflowName, WorkflowStart } from './workflow-start';

/** The columns the relay reads (db/tables.ts `OutboxRow`). */
type OutboxRow = Pick<
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

/** The NOTIFY channel on which a committed outbox row wakes the worker's relay. */
export const OUTBOX_CHANNEL = 'fss_outbox';

export interface OutboxStarterOptions {
  /**
   * What `kick` does after a commit: `start` the workflows from this process, or `notify` the
   * worker's relay (config OUTBOX_STARTS_FROM; docs/decisions.md "Who starts workflows").
   */
  kick?: 'start' | 'notify';
  /** Ask for eager workflow start: the client shares the worker's connection (worker process only). */
  eager?: boolean;
  /** How long the relay leases a row it handles itself (config OUTBOX_LEASE_MS; default 30 s). */
  leaseMs?: number;
  /**
   * Rows handled by direct handlers at once in this process (default 256): leased rows beyond
   * what the endpoints can take only wait in memory (and may throttle into workflows).
   */
  directWindow?: number;
}

/**
 * Starts the workflows that outbox rows ask for. `kick` is the fast path right after a commit
 * (a start from this process, or a NOTIFY to the worker); `relay` (run by the worker process)
 * starts whatever is left. A workflow id is never reused, so a start that already happened is
 * recognised and only marked.
 */
export class OutboxStarter implements OutboxPort {
  /** Tests set this to false to simulate a crash between the commit and the start. */
  fastPath = true;
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly direct = new Map<string, DirectHandler>();
  private directInFlight = 0;
  private directWasFull = false;
  private readonly directSettled: Array<() => void> = [];
  /** Called when direct handling has room again after the window was full (the relay loop wakes). */
  onDirectRoom?: () => void;
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

  /**
   * `maxConcurrentStarts` bounds the start RPCs in flight from this process (fast path and relay
   * together): starts that outrun the worker back its tasks up in the server, and a small Temporal
   * server then completes fewer workflows a second (config TEMPORAL_MAX_CONCURRENT_STARTS; the
   * measurements are in docs/webhooks.md, "Workflow start rate").
   */
  constructor(
    private readonly db: Db,
    private readonly client: () => Promise<Client>,
    readonly taskQueue: string,
    readonly maxConcurrentStarts = 4,
    private readonly opts: OutboxStarterOptions = {},
  ) {}

  private get leaseMs(): number {
    return this.opts.leaseMs ?? 30_000;
  }

  private get directWindow(): number {
    return this.opts.directWindow ?? 256;
  }

  /**
   * Let the relay handle rows of this workflow type itself (outbox-direct.ts): the worker
   * registers the webhook delivery's first attempt here. The API's own starts (OUTBOX_STARTS_FROM
   * =api) do not see handlers: such rows then start their workflow as before.
   */
  setDirect(workflowType: WorkflowName, handler: DirectHandler): void {
    this.direct.set(workflowType, handler);
  }

  /** Wait until the rows this process is handling directly are finished (graceful shutdown). */
  async drainDirect(): Promise<void> {
    while (this.directInFlight > 0) await new Promise<void>((resolve) => this.directSettled.push(resolve));
    await this.done.flush();
  }

  /**
   * Start these rows soon, without waiting; failures are left to the relay. Ids queue up in the
   * process and are started 200 at a time, each chunk in a transaction that locks its rows
   * (`FOR UPDATE SKIP LOCKED`), so the relay never starts the same rows at the same time.
   * In `notify` mode it only wakes the worker's relay (one NOTIFY), which starts them.
   */
  kick(ids: number[]): void {
    if (!this.fastPath || ids.length === 0) return;
    if (this.opts.kick === 'notify') {
      this.db
        .raw('select pg_notify(?, ?)', [OUTBOX_CHANNEL, ''])
        .catch((err) => logger.warn({ err }, 'outbox notify failed; the relay will poll'));
      return;
    }
    this.queue.push(...ids);
    while (this.pumps < 2 && this.queue.length > 0) {
      this.pumps++;
      void this.pump().finally(() => this.pumps--);
    }
  }

  private queue: number[] = [];
  private pumps = 0;

  private async pump(): Promise<void> {
    while (this.queue.length > 0) {
      const chunk = this.queue.splice(0, 200);
      try {
        await this.db.transaction(async (trx) =>
          this.startRows(
            await trx('outbox')
              .whereIn('id', chunk)
              .whereNull('started_at')
              .where((w) => w.whereNull('lease_until').orWhere('lease_until', '<', trx.fn.now()))
              .forUpdate()
              .skipLocked()
              .select('*'),
            trx,
          ),
        );
      } catch (err) {
        logger.warn({ err }, 'outbox fast path failed; the relay will retry');
      }
    }
  }

  /** Signal a workflow, starting it first when no run is open (its id is reused after a closed run). Throws when Temporal cannot be reached. */
  async signalWithStart<K extends WorkflowName>(start: WorkflowStart<K>, signal: SignalDefinition<[]>): Promise<void> {
    const client = await this.client();
    await client.workflow.signalWithStart(start.workflowType, {
      workflowId: start.workflowId,
      taskQueue: start.taskQueue ?? this.taskQueue,
      args: start.args as never,
      signal,
      signalArgs: [],
      workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
      typedSearchAttributes: toTypedSearchAttributes(start.searchAttributes ?? {}),
      ...(start.memo ? { memo: start.memo } : {}),
    });
  }

  /** Whether the workflow has an open run. Throws when Temporal cannot be reached. */
  async isRunning(workflowId: string): Promise<boolean> {
    const client = await this.client();
    try {
      return (await client.workflow.getHandle(workflowId).describe()).status.name === 'RUNNING';
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) return false;
      throw err;
    }
  }

  /**
   * Best-effort signal to a running workflow, for use right after a commit. A lost signal must be
   * harmless: the workflow re-reads the database before acting. Failures are logged, never thrown.
   */
  async signal<Args extends any[]>(workflowId: string, def: SignalDefinition<Args>, ...args: Args): Promise<boolean> {
    try {
      const client = await this.client();
      await client.workflow.getHandle(workflowId).signal(def, ...args);
      return true;
    } catch (err) {
      logger.debug({ err, workflowId, signal: def.name }, 'workflow signal not delivered');
      return false;
    }
  }

  /**
   * One relay pass over rows older than `minAgeMs`, in one statement: it leases up to `batch`
   * pending rows (`FOR UPDATE SKIP LOCKED`, so relays in several workers never take the same row),
   * then starts their workflows, or hands them to their direct handler (not awaited). A relay lost
   * in between leaves the lease to expire; a start that already happened is only marked. Returns
   * how many rows it started or handed over.
   */
  async relay(minAgeMs = 2000, batch = 200): Promise<number> {
    const types = [...this.direct.keys()];
    const pending = this.db('outbox')
      .select('id')
      .whereNull('started_at')
      .where((w) => w.whereNull('lease_until').orWhere('lease_until', '<', this.db.fn.now()));
    if (minAgeMs > 0) pending.where('created_at', '<', new Date(Date.now() - minAgeMs));
    if (types.length > 0 && this.directInFlight >= this.directWindow) {
      pending.whereNot((w) => w.whereIn('workflow_type', types).whereNull('relayed_at'));
      this.directWasFull = true;
    }
    // Rows that failed before go last: a few that can never start must not hold up new ones.
    pending
      .orderBy([{ column: 'attempts' }, { column: 'id' }])
      .limit(batch)
      .forUpdate()
      .skipLocked();
    const rows: OutboxRow[] = await this.db('outbox')
      .whereIn('id', pending)
      .update({ lease_until: this.db.raw(`now() + ? * interval '1 millisecond'`, [this.leaseMs]), leases: this.db.raw('leases + 1') })
      .returning('*');
    rows.sort((a, b) => a.attempts - b.attempts || Number(a.id) - Number(b.id));
    const isDirect = (r: OutboxRow) => this.direct.has(r.workflow_type) && r.relayed_at === null;
    for (const row of rows.filter(isDirect)) this.handleDirect({ ...row, id: Number(row.id) });
    const direct = rows.filter(isDirect).length;
    return direct + (await this.startRows(rows.filter((r) => !isDirect(r))));
  }

  /** Run a leased row's handler, then mark it done or start its workflow (never throws). */
  private handleDirect(row: OutboxRow): void {
    const handler = this.direct.get(row.workflow_type)!;
    this.directInFlight++;
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), Math.max(1000, this.leaseMs - 3000));
    void (async () => {
      try {
        const outcome = await handler({ id: row.id, workflowId: row.workflow_id, args: row.args, lease: row.leases, signal: abort.signal });
        if ('done' in outcome) return this.done.add(row.id, row.leases);
        // The direct part is over: what is left is an ordinary start, with the handler's arguments.
        const n = await this.db('outbox')
          .where({ id: row.id, leases: row.leases })
          .whereNull('started_at')
          .update({ args: JSON.stringify(outcome.start), relayed_at: this.db.fn.now(), lease_until: null });
        if (n === 0) return; // leased again by another relay meanwhile: it takes over
        const result = await this.startOne(await this.client(), { ...row, args: outcome.start });
        if (result === true) await this.db('outbox').where({ id: row.id }).update({ started_at: this.db.fn.now(), lease_until: null });
        else
          await this.db('outbox')
            .where({ id: row.id })
            .update({ attempts: this.db.raw('attempts + 1'), last_error: result });
      } catch (err) {
        logger.warn({ err, outboxId: row.id }, 'outbox: direct handling failed; the lease will expire and the relay retries');
      } finally {
        clearTimeout(timer);
        this.directInFlight--;
        for (const resolve of this.directSettled.splice(0)) resolve();
        if (this.directWasFull && this.directInFlight <= this.directWindow / 2) {
          this.directWasFull = false;
          this.onDirectRoom?.();
        }
      }
    })();
  }

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

  private async startOne(client: Client, row: OutboxRow): Promise<true | string> {
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
        ...(this.opts.eager && !row.start_at ? { requestEagerStart: true } : {}),
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
   * Start the rows with at most `maxConcurrentStarts` RPCs in flight; started rows are marked in
   * batches (one UPDATE per 200), failed ones get their error and an attempt more.
   */
  private async startRows(rows: OutboxRow[], trx: Executor = this.db): Promise<number> {
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
