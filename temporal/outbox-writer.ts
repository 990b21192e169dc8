import type { Db, Executor } from '../db/knex';
import type { OutboxPort } from './outbox-port';
import type { WorkflowStart } from './workflow-start';

/**
 * The outbox's writer: a workflow start becomes a row in the caller's transaction, and the port
 * is kicked after the commit (the fast path). The relay (temporal/outbox-relay.ts)
 * starts what the fast path did not.
 */

function outboxRow(start: WorkflowStart, defaultTaskQueue: string) {
  return {
    workflow_type: start.workflowType,
    workflow_id: start.workflowId,
    task_queue: start.taskQueue ?? defaultTaskQueue,
    args: JSON.stringify(start.args),
    search_attributes: JSON.stringify(start.searchAttributes ?? {}),
    memo: JSON.stringify(start.memo ?? {}),
    start_at: start.startAt ?? null,
    summary: start.summary ?? null,
    details: start.details ?? null,
  };
}

/** Write an outbox row inside the caller's transaction. Returns its id for the fast path. */
export async function enqueueWorkflow(trx: Executor, start: WorkflowStart, defaultTaskQueue: string): Promise<number> {
  const [row] = await trx('outbox').insert(outboxRow(start, defaultTaskQueue)).returning('id');
  return row.id;
}

/** Many outbox rows in multi-row INSERTs (500 a statement). Returns their ids, in order. */
export async function enqueueWorkflows(trx: Executor, starts: WorkflowStart[], defaultTaskQueue: string): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < starts.length; i += 500) {
    const rows: Array<{ id: number }> = await trx('outbox')
      .insert(starts.slice(i, i + 500).map((s) => outboxRow(s, defaultTaskQueue)))
      .returning('id');
    ids.push(...rows.map((r) => r.id));
  }
  return ids;
}

/** Enqueue one workflow start, or many at once (multi-row INSERTs). The one type every start site uses. */
export type Enqueue = (start: WorkflowStart | WorkflowStart[]) => Promise<void>;

/** Run `fn` in a transaction; workflow starts it enqueues are kicked right after the commit. */
export async function transactionWithOutbox<T>(
  db: Db,
  starter: OutboxPort,
  fn: (trx: Executor, enqueue: Enqueue) => Promise<T>,
): Promise<T> {
  const ids: number[] = [];
  const result = await db.transaction(async (trx) =>
    fn(trx, async (start) => {
      if (Array.isArray(start)) ids.push(...(await enqueueWorkflows(trx, start, starter.taskQueue)));
      else ids.push(await enqueueWorkflow(trx, start, starter.taskQueue));
    }),
  );
  starter.kick(ids);
  return result;
}
