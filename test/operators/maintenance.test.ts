import { maintenanceActivities } from '../../activities/maintenance';
import { ensureMaintenanceSchedules } from '../../services/maintenance/schedules';
import { maintenanceTasks, type MaintenanceTask } from '../../services/maintenance/tasks';
import { expireRateLimits, RATE_LIMIT_GRACE_MS } from '../../services/rate-limits/expire';
import { createTestWorker } from '../helpers/temporal';
import { useApiWorld } from '../helpers/world';

/** Maintenance as Temporal Schedules, on the dev server (the time-skipping server has no Schedules). */
const w = useApiWorld({ temporal: 'local', team: false });

async function maintenanceScheduleIds(): Promise<string[]> {
  const ids: string[] = [];
  for await (const s of w.env.client.schedule.list()) if (s.scheduleId.startsWith('maintenance-')) ids.push(s.scheduleId);
  return ids.sort();
}

/** Schedule listing goes through visibility, which is eventually consistent: wait for the expected list. */
async function eventuallyScheduleIds(expected: string[]): Promise<string[]> {
  let ids: string[] = [];
  for (let i = 0; i < 50; i++) {
    ids = await maintenanceScheduleIds();
    if (JSON.stringify(ids) === JSON.stringify(expected)) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  return ids;
}

async function seedRateLimits(nowMs: number) {
  await w.tdb.db('rate_limits').insert([
    { key: 'old', points: 1, expire: nowMs - RATE_LIMIT_GRACE_MS - 1 },
    // Deletable an hour from now: the schedule, unpaused by an earlier test, also runs every minute
    // on its own, and a slow machine once took over a minute to get to the end of the test.
    { key: 'recent', points: 1, expire: nowMs - RATE_LIMIT_GRACE_MS + 3_600_000 },
    { key: 'forever', points: 1, expire: null },
  ]);
}

test('expireRateLimits deletes counters whose window ended over an hour ago, and only those', async () => {
  const nowMs = Date.now();
  await seedRateLimits(nowMs);
  expect(await expireRateLimits(w.tdb, { nowMs })).toEqual({ deleted: 1 });
  expect((await w.tdb.db('rate_limits').orderBy('key').select('key')).map((r) => r.key)).toEqual(['forever', 'recent']);
  await w.tdb.db('rate_limits').delete();
});

test('one Schedule per task, created at worker start; a second start makes no duplicate and keeps a pause', async () => {
  const expected = Object.keys(maintenanceTasks)
    .map((n) => `maintenance-${n}`)
    .sort();
  const first = await ensureMaintenanceSchedules({ client: w.env.client }, { taskQueue: 'fss' });
  expect(first.created.sort()).toEqual(expected);
  expect(await eventuallyScheduleIds(expected)).toEqual(expected);

  const handle = w.env.client.schedule.getHandle('maintenance-rate-limit-expiry');
  await handle.pause('paused by an operator');
  const second = await ensureMaintenanceSchedules({ client: w.env.client }, { taskQueue: 'fss' });
  expect({ ...second, unchanged: [...second.unchanged].sort() }).toEqual({ created: [], updated: [], unchanged: expected, deleted: [] });
  expect(await maintenanceScheduleIds()).toEqual(expected);
  const d = await handle.describe();
  expect(d.state.paused).toBe(true);
  expect(d.state.note).toBe('paused by an operator');
  expect(d.spec.intervals?.map((i) => i.every)).toEqual([60_000]);
  expect(d.action.type === 'startWorkflow' && d.action.workflowType).toBe('maintenanceWorkflow');

  // A changed interval updates the Schedule in place, still paused; a task that left the table loses its Schedule.
  const changed: Record<string, MaintenanceTask> = {
    'rate-limit-expiry': { ...maintenanceTasks['rate-limit-expiry'], every: '2m' },
    'gone-task': { every: '1h', description: 'about to leave the table', run: async () => null },
  };
  const third = await ensureMaintenanceSchedules({ client: w.env.client }, { taskQueue: 'fss', tasks: changed });
  expect(third.updated).toEqual(['maintenance-rate-limit-expiry']);
  expect(third.created).toEqual(['maintenance-gone-task']);
  await eventuallyScheduleIds([...expected, 'maintenance-gone-task'].sort());
  const fourth = await ensureMaintenanceSchedules({ client: w.env.client }, { taskQueue: 'fss' });
  expect(fourth.updated).toEqual(['maintenance-rate-limit-expiry']);
  expect(fourth.deleted).toEqual(['maintenance-gone-task']);
  const after = await handle.describe();
  expect(after.state.paused).toBe(true);
  expect(after.spec.intervals?.map((i) => i.every)).toEqual([60_000]);
  await handle.unpause('resumed');
  expect((await handle.describe()).state.paused).toBe(false);
});

test('a triggered run executes the task through the maintenance workflow and its activity', async () => {
  await ensureMaintenanceSchedules({ client: w.env.client }, { taskQueue: 'fss' });
  await seedRateLimits(Date.now());
  const worker = await createTestWorker(w.env, maintenanceActivities(w.app.deps));
  await worker.runUntil(async () => {
    const handle = w.env.client.schedule.getHandle('maintenance-rate-limit-expiry');
    const before = (await handle.describe()).info.recentActions.length;
    await handle.trigger();
    let workflowId: string | undefined;
    // The schedule records its action when Temporal's scheduler gets to it; on a loaded two-core CI
    // machine that took over 10 s once, so the bound is a minute (it ends as soon as the action shows).
    for (const deadline = Date.now() + 60_000; Date.now() < deadline && !workflowId;) {
      const actions = (await handle.describe()).info.recentActions;
      if (actions.length > before) workflowId = actions[actions.length - 1].action.workflow.workflowId;
      else await new Promise((r) => setTimeout(r, 100));
    }
    expect(workflowId).toMatch(/^maintenance-rate-limit-expiry-/);
    expect(await w.env.client.workflow.getHandle(workflowId!).result()).toEqual({ deleted: 1 });
    const run = await w.env.client.workflow.getHandle(workflowId!).describe();
    expect(await run.staticSummary()).toBe(`Maintenance rate-limit-expiry, every 1m: ${maintenanceTasks['rate-limit-expiry'].description}`);
    const meta = await w.env.client.workflow.getHandle(workflowId!).query<{ currentDetails?: string }>('__temporal_workflow_metadata');
    expect(meta.currentDetails).toBe('done: {"deleted":1}');
  });
  expect((await w.tdb.db('rate_limits').orderBy('key').select('key')).map((r) => r.key)).toEqual(['forever', 'recent']);
}, 120_000);
