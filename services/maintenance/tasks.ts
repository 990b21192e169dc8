import type { ServiceDeps } from '../deps';
import { expireRateLimits } from '../rate-limits/expire';

/**
 * Periodic work, one Temporal Schedule per entry (`maintenance-<name>`, created at worker start by
 * services/maintenance/schedules.ts; docs/operators.md "Maintenance Schedules"). Each `run` calls
 * a use case that is tested on its own; the maintenance workflow runs it through the
 * `runMaintenanceTask` activity, which looks the entry up by name.
 */
export interface MaintenanceTask {
  /** how often, as a Temporal duration string: '1m', '15m', '1h' */
  every: string;
  /** one line, shown to operators on the Schedules page */
  description: string;
  run(deps: ServiceDeps): Promise<unknown>;
}

export const maintenanceTasks = {
  'rate-limit-expiry': {
    every: '1m',
    description: 'Delete rate-limit counters whose window ended over an hour ago',
    run: (deps) => expireRateLimits(deps, {}),
  },
} satisfies Record<string, MaintenanceTask>;

export type MaintenanceTaskName = keyof typeof maintenanceTasks;
