import { randomUUID } from 'node:crypto';
import { Client } from '@temporalio/client';
import { OutboxStarter, transactionWithOutbox } from '../../temporal/outbox';
import { startRelayLoop } from '../../temporal/relay-loop';
import { withWorker } from '../helpers/temporal';
import { useApiWorld } from '../helpers/world';

const w = useApiWorld({ temporal: 'time-skipping', app: false, team: false });

it('starts a workflow exactly once when the starter stops between the commit and the start', async () => {
  const starter = new OutboxStarter(w.tdb.db, async () => w.env.client, 'fss');
  starter.fastPath = false; // the "crash": the commit happens, the fast-path start never does
  const workflowId = `ping-${randomUUID()}`;
  await transactionWithOutbox(w.tdb.db, starter, async (_trx, enqueue) => {
    await enqueue({ workflowType: 'pingWorkflow', workflowId, args: ['x'], searchAttributes: {} });
  });
  await expect(w.env.client.workflow.getHandle(workflowId).describe()).rejects.toThrow();
  const row = await w.tdb.db('outbox').where({ workflow_id: workflowId }).first();
  expect(row!.started_at).toBeNull();

  let runs = 0;
  const activities = { ping: async (t: string) => `pong:${t}:${++runs}` };
  await withWorker(w.env, activities, async () => {
    expect(await starter.relay(0)).toBe(1); // the relay picks the row up
    expect(await starter.relay(0)).toBe(0); // and does not start it twice
    const first = await w.env.client.workflow.getHandle(workflowId).describe();
    // A crash after the start but before the row was marked: the relay tries again.
    await w.tdb.db('outbox').where({ workflow_id: workflowId }).update({ started_at: null });
    expect(await starter.relay(0)).toBe(1); // recognised as already started, only marked
    const result = await w.env.client.workflow.getHandle(workflowId).result();
    expect(result).toBe('pong:x:1');
    const after = await w.env.client.workflow.getHandle(workflowId).describe();
    expect(after.runId).toBe(first.runId);
    // Even after completion, the id is never reused.
    await w.tdb.db('outbox').where({ workflow_id: workflowId }).update({ started_at: null });
    await starter.relay(0);
    expect((await w.env.client.workflow.getHandle(workflowId).describe()).runId).toBe(first.runId);
  });
  expect(runs).toBe(1);
});

it('starts right after the commit on the fast path', async () => {
  const starter = new OutboxStarter(w.tdb.db, async () => w.env.client, 'fss');
  const workflowId = `ping-${randomUUID()}`;
  await withWorker(w.env, { ping: async (t: string) => `pong:${t}` }, async () => {
    await transactionWithOutbox(w.tdb.db, starter, async (_trx, enqueue) => {
      await enqueue({ workflowType: 'pingWorkflow', workflowId, args: ['fast'] });
    });
    for (let i = 0; i < 50; i++) {
      const row = await w.tdb.db('outbox').where({ workflow_id: workflowId }).first();
      if (row!.started_at) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await w.env.client.workflow.getHandle(workflowId).result()).toBe('pong:fast');
  });
});

it('starts nothing when the transaction rolls back', async () => {
  const starter = new OutboxStarter(w.tdb.db, async () => w.env.client, 'fss');
  const workflowId = `ping-${randomUUID()}`;
  await expect(
    transactionWithOutbox(w.tdb.db, starter, async (_trx, enqueue) => {
      await enqueue({ workflowType: 'pingWorkflow', workflowId, args: ['no'] });
      throw new Error('boom');
    }),
  ).rejects.toThrow('boom');
  expect(await w.tdb.db('outbox').where({ workflow_id: workflowId }).first()).toBeUndefined();
});

// OUTBOX_STARTS_FROM=worker (the default): the API only NOTIFYs after its commit; the worker's
// relay loop wakes on it and starts the workflow with its own client (eager start requested).

/** The API side: it has no Temporal client at all in this mode. */
const apiStarter = () =>
  new OutboxStarter(w.tdb.db, async () => Promise.reject(new Error('the API does not start workflows here')), 'fss', 4, { kick: 'notify' });

async function commitPing(starter: OutboxStarter, token: string): Promise<string> {
  const workflowId = `ping-${randomUUID()}`;
  await transactionWithOutbox(w.tdb.db, starter, async (_trx, enqueue) => {
    await enqueue({ workflowType: 'pingWorkflow', workflowId, args: [token] });
  });
  return workflowId;
}

async function waitForResult(workflowId: string): Promise<string> {
  for (let i = 0; i < 600; i++) {
    try {
      return await w.env.client.workflow.getHandle(workflowId).result();
    } catch (err) {
      if (!/not found/i.test(String(err))) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  throw new Error(`${workflowId} never started`);
}

it('a commit wakes the worker relay through NOTIFY: started without waiting for a timed pass', async () => {
  let runs = 0;
  await withWorker(w.env, { ping: async (t: string) => `pong:${t}:${++runs}` }, async () => {
    const workerStarter = new OutboxStarter(w.tdb.db, async () => new Client({ connection: w.env.nativeConnection }), 'fss', 4, {
      eager: true,
    });
    // A 10-minute idle sleep: only the NOTIFY can wake the loop within this test's time.
    let firstPassOver!: () => void;
    const firstPass = new Promise<void>((resolve) => (firstPassOver = resolve));
    const relay = await startRelayLoop(workerStarter, {
      databaseUrl: w.tdb.url,
      minAgeMs: 0,
      idleMs: 600_000,
      afterPass: () => firstPassOver(),
    });
    try {
      await firstPass; // the loop's first pass is over (it found nothing); it sleeps now
      const workflowId = await commitPing(apiStarter(), 'notified');
      expect(await waitForResult(workflowId)).toBe('pong:notified:1');
      const row = await w.tdb.db('outbox').where({ workflow_id: workflowId }).first();
      expect(row!.started_at).not.toBeNull();
      expect(row!.attempts).toBe(0);
    } finally {
      await relay.stop();
    }
  });
  expect(runs).toBe(1);
}, 30_000);

it('a lost NOTIFY only costs latency: the timed pass starts the row', async () => {
  await withWorker(w.env, { ping: async (t: string) => `pong:${t}` }, async () => {
    const silent = apiStarter();
    silent.fastPath = false; // the commit happens, the NOTIFY never does
    const workflowId = await commitPing(silent, 'timed');
    const workerStarter = new OutboxStarter(w.tdb.db, async () => new Client({ connection: w.env.nativeConnection }), 'fss', 4, {
      eager: true,
    });
    const relay = await startRelayLoop(workerStarter, { databaseUrl: w.tdb.url, minAgeMs: 0, idleMs: 100 });
    try {
      expect(await waitForResult(workflowId)).toBe('pong:timed');
    } finally {
      await relay.stop();
    }
  });
});

it('rows that failed to start go after fresh ones', async () => {
  const starter = new OutboxStarter(w.tdb.db, async () => w.env.client, 'fss');
  await w.tdb.db('outbox').whereNull('started_at').update({ started_at: w.tdb.db.fn.now() });
  const [stuck] = await w.tdb
    .db('outbox')
    .insert({
      workflow_type: 'pingWorkflow',
      workflow_id: `ping-${randomUUID()}`,
      task_queue: 'fss',
      args: JSON.stringify(['x']),
      search_attributes: '{}',
      memo: '{}',
      attempts: 5,
    })
    .returning('id');
  const fresh = await commitPing(Object.assign(apiStarter(), { fastPath: false }), 'fresh');
  await withWorker(w.env, { ping: async (t: string) => `pong:${t}` }, async () => {
    expect(await starter.relay(0, 1)).toBe(1); // a batch of one: the fresh row, not the older stuck one
    expect((await w.tdb.db('outbox').where({ workflow_id: fresh }).first())!.started_at).not.toBeNull();
    expect((await w.tdb.db('outbox').where({ id: stuck.id }).first())!.started_at).toBeNull();
  });
});
