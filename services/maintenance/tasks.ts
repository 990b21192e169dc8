import type { ServiceDeps } from '../deps';
import { reconcileCalendarSyncs } from '../calendars/reconcile';
import { expireIdempotencyKeys } from '../idempotency/expire';
import { expireRateLimits } from '../rate-limits/expire';
import { expireTranscripts } from '../meeting-followup/transcripts';

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
  'idempotency-expiry': {
    every: '15m',
    description: 'Delete stored Idempotency-Key answers older than 24 hours',
    run: (deps) => expireIdempotencyKeys(deps, {}),
  },
  'calendar-reconcile': {
    every: '5m',
    description:
      'Start the sync workflow of every calendar connection that has none running; mark connections without a good sync for 3 intervals stale',
    run: (deps) => reconcileCalendarSyncs(deps, {}),
  },
  'transcript-expiry': {
    every: '1h',
    description: 'Delete meeting transcripts kept longer than TRANSCRIPT_RETENTION_DAYS',
    run: (deps) => expireTranscripts(deps, {}),
  },
} satisfies Record<string, MaintenanceTask>;

export type MaintenanceTaskName = keyof typeof maintenanceTasks;
