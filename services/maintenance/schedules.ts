import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client, type ScheduleOptionsStartWorkflowAction } from '@temporalio/client';
import type { Duration } from '@temporalio/common';
import { logger } from '../../core/logger';
import { maintenanceScheduleId, type MaintenanceStarts } from '../../workflows/maintenance/contract';
import { maintenanceTasks, type MaintenanceTask } from './tasks';

const PREFIX = maintenanceScheduleId('');

export interface EnsureSchedulesInput {
  taskQueue: string;
  /** The table to follow (tests pass their own); default `maintenanceTasks`. */
  tasks?: Record<string, MaintenanceTask>;
}

export interface EnsureSchedulesResult {
  created: string[];
  updated: string[];
  unchanged: string[];
  deleted: string[];
}

function action(
  name: string,
  task: MaintenanceTask,
  taskQueue: string,
): ScheduleOptionsStartWorkflowAction<MaintenanceStarts['maintenanceWorkflow']> {
  return {
    type: 'startWorkflow',
    workflowType: 'maintenanceWorkflow',
    workflowId: maintenanceScheduleId(name), // the Schedule appends the scheduled time
    taskQueue,
    args: [{ task: name }],
    staticSummary: `Maintenance ${name}, every ${task.every}: ${task.description}`,
    staticDetails: `**${name}**, every ${task.every}\n\n${task.description}\n\nDefined in \`services/maintenance/tasks.ts\`; see docs/operators.md "Maintenance Schedules".`,
    workflowExecutionTimeout: '30m',
  };
}

/**
 * One Temporal Schedule per maintenance task (`maintenance-<name>`), created when the worker
 * starts. Idempotent: an existing Schedule is left as it is (paused stays paused) unless its
 * interval or description changed, which updates it in place, keeping its state; a
 * `maintenance-*` Schedule whose task left the table is deleted. Runs never overlap (SKIP) and a
 * run missed while no worker ran is not caught up beyond a minute.
 */
export async function ensureMaintenanceSchedules(deps: { client: Client }, input: EnsureSchedulesInput): Promise<EnsureSchedulesResult> {
  const { client } = deps;
  const tasks: Record<string, MaintenanceTask> = input.tasks ?? maintenanceTasks;
  const result: EnsureSchedulesResult = { created: [], updated: [], unchanged: [], deleted: [] };
  for (const [name, task] of Object.entries(tasks)) {
    const scheduleId = maintenanceScheduleId(name);
    const wanted = action(name, task, input.taskQueue);
    const spec = { intervals: [{ every: task.every as Duration }] };
    try {
      await client.schedule.create({
        scheduleId,
        spec,
        action: wanted,
        policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1m' },
        state: { note: task.description },
      });
      result.created.push(scheduleId);
    } catch (err) {
      if (!(err instanceof ScheduleAlreadyRunning)) throw err;
      const handle = client.schedule.getHandle(scheduleId);
      const now = await handle.describe();
      const same =
        now.action.type === 'startWorkflow' &&
        now.action.staticSummary === wanted.staticSummary &&
        now.action.taskQueue === wanted.taskQueue;
      if (same) {
        result.unchanged.push(scheduleId);
        continue;
      }
      await handle.update((prev) => ({ ...prev, spec, action: wanted }));
      result.updated.push(scheduleId);
    }
  }
  for await (const s of client.schedule.list()) {
    if (!s.scheduleId.startsWith(PREFIX) || Object.hasOwn(tasks, s.scheduleId.slice(PREFIX.length))) continue;
    await client.schedule.getHandle(s.scheduleId).delete();
    result.deleted.push(s.scheduleId);
  }
  if (result.created.length + result.updated.length + result.deleted.length > 0) logger.info(result, 'maintenance schedules');
  return result;
}
