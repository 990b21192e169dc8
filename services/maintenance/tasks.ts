import type { ServiceDeps } from '../deps';
import { reconcileCalendarSyncs } from '../calendars/reconcile';
import { expireIdempotencyKeys } from '../idempotency/expire';

export interface MaintenanceTask {
  /** how often, as a Temporal duration string: '1m', '15m', '1h' */
  every: string;
  /** one line, shown to operators on the Schedules page */
  description: string;
  run(deps: ServiceDeps): Promise<unknown>;
}

export const maintenanceTasks = {
  'idempotency-expiry': {
    every: '15m',
    description: 'Delete stored Idempotency-Key answers older than 24 hours',
    run: (deps) => expireIdempotencyKeys(deps, {}),
  },
  'calendar-reconcile': {
    every: '5m',
    description: 'Start the sync workflow of every calendar connection that has none running; mark connections without a good sync for 3 intervals stale',
    run: (deps) => reconcileCalendarSyncs(deps, {}),
  },
} satisfies Record<string, MaintenanceTask>;
