import { proxyActivities, setCurrentDetails } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import type { MaintenanceInput } from './contract';

export * from './contract';

// A failing run is retried a few times; the next scheduled run tries again anyway.
const { runMaintenanceTask } = proxyActivities<Pick<Activities, 'runMaintenanceTask'>>({
  startToCloseTimeout: '10m',
  retry: { initialInterval: '5s', backoffCoefficient: 2, maximumInterval: '1m', maximumAttempts: 3 },
});

/**
 * Started by a `maintenance-<task>` Schedule: runs one entry of the maintenance table (looked up
 * by name in the activity, so a new entry needs no workflow change) and returns what it reported.
 */
export async function maintenanceWorkflow(input: MaintenanceInput): Promise<unknown> {
  setCurrentDetails(`running maintenance task \`${input.task}\``);
  const result = await runMaintenanceTask(input);
  setCurrentDetails(`done: ${JSON.stringify(result) ?? 'no result'}`);
  return result;
}
