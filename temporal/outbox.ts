import type { Client } from '@temporalio/client';
import type { SignalDefinition } from '@temporalio/common';
import type { Db } from '../db/knex';
import { logger } from '../core/logger';
import type { WorkflowName, WorkflowStart } from './workflow-start';
import { DirectRegistry, type DirectHandler } from './outbox-direct';
import type { OutboxPort } from './outbox-port';
import { relayPass } from './outbox-relay';
import { isRunning, signalBestEffort, signalWithStart } from './outbox-signals';
import { RowStarter } from './outbox-start';

export type { OutboxPort };
export { enqueueWorkflow, enqueueWorkflows, transactionWithOutbox, type Enqueue } from './outbox-writer';
export type { DirectHandler, DirectOutcome, DirectRow } from './outbox-direct';

export type { WorkflowArgs, WorkflowName, WorkflowStart } from './workflow-start';

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
 * The outbox's starter, put together from its parts: `kick` is the fast path right after a commit
 * (a start from this process, or a NOTIFY to the worker); `relay` (outbox-relay.ts, run by the
 * worker process) starts whatever is left or hands it to a direct handler (outbox-direct.ts);
 * starts go through one bounded starter (outbox-start.ts). A workflow id is never reused, so a
 * start that already happened is recognised and only marked.
 */
export class OutboxStarter implements OutboxPort {
  /** Tests set this to false to simulate a crash between the commit and the start. */
  fastPath = true;
  /** Called when direct handling has room again after the window was full (the relay loop wakes). */
  onDirectRoom?: () => void;
  private readonly starter: RowStarter;
  private readonly direct: DirectRegistry;

  /**
   * `maxConcurrentStarts` bounds the start RPCs in flight from this process (fast path and relay
   * together; outbox-start.ts).
   */
  constructor(
    private readonly db: Db,
    private readonly client: () => Promise<Client>,
    readonly taskQueue: string,
    readonly maxConcurrentStarts = 4,
    private readonly opts: OutboxStarterOptions = {},
  ) {
    this.starter = new RowStarter(db, client, maxConcurrentStarts, opts.eager ?? false);
    this.direct = new DirectRegistry(db, this.starter, this.leaseMs, opts.directWindow ?? 256, () => this.onDirectRoom?.());
  }

  private get leaseMs(): number {
    return this.opts.leaseMs ?? 30_000;
  }

  /**
   * Let the relay handle rows of this workflow type itself (outbox-direct.ts): the worker
   * registers the webhook delivery's first attempt here. The API's own starts (OUTBOX_STARTS_FROM
   * =api) do not see handlers: such rows then start their workflow as before.
   */
  setDirect<K extends WorkflowName>(workflowType: K, handler: DirectHandler<K>): void {
    this.direct.set(workflowType, handler);
  }

  /** Wait until the rows this process is handling directly are finished (graceful shutdown). */
  drainDirect(): Promise<void> {
    return this.direct.drain();
  }

  /** One relay pass over rows older than `minAgeMs` (outbox-relay.ts). Returns how many rows it started or handed over. */
  relay(minAgeMs = 2000, batch = 200): Promise<number> {
    return relayPass({ db: this.db, starter: this.starter, direct: this.direct, leaseMs: this.leaseMs }, minAgeMs, batch);
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
          this.starter.startRows(
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

  /** Signals go straight to Temporal (outbox-signals.ts). */
  signalWithStart<K extends WorkflowName>(start: WorkflowStart<K>, signal: SignalDefinition<[]>): Promise<void> {
    return signalWithStart(this.client, this.taskQueue, start, signal);
  }

  isRunning(workflowId: string): Promise<boolean> {
    return isRunning(this.client, workflowId);
  }

  signal<Args extends any[]>(workflowId: string, def: SignalDefinition<Args>, ...args: Args): Promise<boolean> {
    return signalBestEffort(this.client, workflowId, def, ...args);
  }
}
