import { randomUUID } from 'node:crypto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { OutboxStarter, transactionWithOutbox } from '../../temporal/outbox';
import { createTestDatabase, type TestDatabase } from '../helpers/db';
import { createTimeSkippingEnv, withWorker } from '../helpers/temporal';

let tdb: TestDatabase;
let env: TestWorkflowEnvironment;

beforeAll(async () => {
  tdb = await createTestDatabase();
  env = await createTimeSkippingEnv();
});
afterAll(async () => {
  await env?.teardown();
  await tdb?.drop();
});

it('starts a workflow exactly once when the starter stops between the commit and the start', async () => {
  const starter = new OutboxStarter(tdb.db, async () => env.client, 'fss');
  starter.fastPath = false; // the "crash": the commit happens, the fast-path start never does
  const workflowId = `ping-${randomUUID()}`;
  await transactionWithOutbox(tdb.db, starter, async (_trx, enqueue) => {
    await enqueue({ workflowType: 'pingWorkflow', workflowId, args: ['x'], searchAttributes: {} });
  });
  await expect(env.client.workflow.getHandle(workflowId).describe()).rejects.toThrow();
  const row = await tdb.db('outbox').where({ workflow_id: workflowId }).first();
  expect(row.started_at).toBeNull();

  let runs = 0;
  const activities = { ping: async (t: string) => `pong:${t}:${++runs}` };
  await withWorker(env, activities, async () => {
    expect(await starter.relay(0)).toBe(1); // the relay picks the row up
    expect(await starter.relay(0)).toBe(0); // and does not start it twice
    const first = await env.client.workflow.getHandle(workflowId).describe();
    // A crash after the start but before the row was marked: the relay tries again.
    await tdb.db('outbox').where({ workflow_id: workflowId }).update({ started_at: null });
    expect(await starter.relay(0)).toBe(1); // recognised as already started, only marked
    const result = await env.client.workflow.getHandle(workflowId).result();
    expect(result).toBe('pong:x:1');
    const after = await env.client.workflow.getHandle(workflowId).describe();
    expect(after.runId).toBe(first.runId);
    // Even after completion, the id is never reused.
    await tdb.db('outbox').where({ workflow_id: workflowId }).update({ started_at: null });
    await starter.relay(0);
    expect((await env.client.workflow.getHandle(workflowId).describe()).runId).toBe(first.runId);
  });
  expect(runs).toBe(1);
});

it('starts right after the commit on the fast path', async () => {
  const starter = new OutboxStarter(tdb.db, async () => env.client, 'fss');
  const workflowId = `ping-${randomUUID()}`;
  await withWorker(env, { ping: async (t: string) => `pong:${t}` }, async () => {
    await transactionWithOutbox(tdb.db, starter, async (_trx, enqueue) => {
      await enqueue({ workflowType: 'pingWorkflow', workflowId, args: ['fast'] });
    });
    for (let i = 0; i < 50; i++) {
      const row = await tdb.db('outbox').where({ workflow_id: workflowId }).first();
      if (row.started_at) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await env.client.workflow.getHandle(workflowId).result()).toBe('pong:fast');
  });
});

it('starts nothing when the transaction rolls back', async () => {
  const starter = new OutboxStarter(tdb.db, async () => env.client, 'fss');
  const workflowId = `ping-${randomUUID()}`;
  await expect(
    transactionWithOutbox(tdb.db, starter, async (_trx, enqueue) => {
      await enqueue({ workflowType: 'pingWorkflow', workflowId, args: ['no'] });
      throw new Error('boom');
    }),
  ).rejects.toThrow('boom');
  expect(await tdb.db('outbox').where({ workflow_id: workflowId }).first()).toBeUndefined();
});
