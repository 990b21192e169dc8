/**
 * The sync workflow itself, with a stand-in activity on the time-skipping test server: it syncs at
 * once and then every interval the activity names, at once on the sync-now signal, continues as new
 * so its history stays bounded, ends when the connection is gone or on the stop signal, and keeps
 * going after an activity that failed for good.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { Worker } from '@temporalio/worker';
import { calendarSyncNowSignal, calendarSyncStopSignal, calendarSyncWorkflowId, SYNCS_PER_RUN } from '../../workflows/calendars/contract';
import type { SyncResult } from '../../services/calendars/sync';
import { createTestWorker, createTimeSkippingEnv } from '../helpers/temporal';

let env: TestWorkflowEnvironment;
let worker: Worker;
let running: Promise<void>;
const calls = new Map<string, number>();
/** What the stand-in answers, per connection id. */
const script = new Map<string, (n: number) => SyncResult>();

beforeAll(async () => {
  env = await createTimeSkippingEnv();
  worker = await createTestWorker(env, {
    async syncCalendarConnection({ connectionId }: { connectionId: string }): Promise<SyncResult> {
      const n = (calls.get(connectionId) ?? 0) + 1;
      calls.set(connectionId, n);
      return script.get(connectionId)!(n);
    },
  });
  running = worker.run();
}, 60_000);
afterAll(async () => {
  worker.shutdown();
  await running;
  await env.teardown();
});

function start(connectionId: string) {
  return env.client.workflow.start('calendarSyncWorkflow', {
    workflowId: calendarSyncWorkflowId(connectionId),
    taskQueue: 'fss',
    args: [{ connectionId, teamId: 'team', userId: 'user' }],
  });
}

async function until(check: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 50));
  }
}

it('syncs every interval, continues as new every SYNCS_PER_RUN syncs, and ends when the connection is gone', async () => {
  const last = 2 * SYNCS_PER_RUN + 10;
  script.set('c1', (n) => ({ outcome: n >= last ? 'gone' : 'ok', message: null, nextSyncMs: 5 * 60_000 }));
  const handle = await start('c1');
  await expect(handle.result()).resolves.toBe('gone');
  expect(calls.get('c1')).toBe(last);
  const latest = await env.client.workflow.getHandle(calendarSyncWorkflowId('c1')).describe();
  expect(latest.runId).not.toBe(handle.firstExecutionRunId);
  // Each run's history stays small: about a dozen events per sync.
  const history = await env.client.workflow.getHandle(calendarSyncWorkflowId('c1'), handle.firstExecutionRunId).fetchHistory();
  expect(history.events!.length).toBeLessThan(SYNCS_PER_RUN * 15);
}, 120_000);

it('syncs at once on the sync-now signal and stops on the stop signal', async () => {
  script.set('c2', () => ({ outcome: 'ok', message: null, nextSyncMs: 3600_000 }));
  const handle = await start('c2');
  await until(() => calls.get('c2') === 1);
  await handle.signal(calendarSyncNowSignal);
  await until(() => calls.get('c2') === 2);
  await handle.signal(calendarSyncStopSignal);
  await expect(handle.result()).resolves.toBe('stopped');
  expect(calls.get('c2')).toBe(2);
}, 60_000);

it('an activity that keeps failing does not end the workflow: it tries again at the next interval', async () => {
  script.set('c3', (n) => {
    if (n <= 5) throw new Error('database is down');
    return { outcome: 'gone', message: null, nextSyncMs: 60_000 };
  });
  const handle = await start('c3');
  await expect(handle.result()).resolves.toBe('gone');
  expect(calls.get('c3')).toBe(6);
}, 120_000);
