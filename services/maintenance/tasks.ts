import type { ServiceDeps } from '../deps';
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
} satisfies Record<string, MaintenanceTask>;
