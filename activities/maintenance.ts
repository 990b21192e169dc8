import { ApplicationFailure } from '@temporalio/activity';
import { maintenanceTasks, type MaintenanceTask } from '../services/maintenance/tasks';
import type { MaintenanceInput } from '../workflows/maintenance/contract';
import type { ActivityDeps } from './deps';

export function maintenanceActivities(deps: Pick<ActivityDeps, 'db' | 'config' | 'outbox' | 'video'>) {
  return {
    /** Run one entry of the maintenance table by name; an unknown name fails at once (no retries). */
    async runMaintenanceTask(input: MaintenanceInput): Promise<unknown> {
      const tasks: Record<string, MaintenanceTask> = maintenanceTasks;
      const task = Object.hasOwn(tasks, input.task) ? tasks[input.task] : undefined;
      if (!task) throw ApplicationFailure.nonRetryable(`unknown maintenance task ${input.task}`, 'UnknownMaintenanceTask');
      return task.run(deps);
    },
  };
}
