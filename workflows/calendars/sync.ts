import {
  condition,
  continueAsNew,
  patched,
  proxyActivities,
  setCurrentDetails,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import { SA } from '../../temporal/search-attributes';
import type { CalendarActivities } from '../../activities/calendars/sync';
import { calendarSyncNowSignal, calendarSyncStopSignal, SYNCS_PER_RUN, type CalendarSyncInput, type CalendarSyncState } from './contract';

// A remote failure is not an activity failure (the activity records it on the connection and
// returns); only database trouble throws, and is retried here with backoff.
const { syncCalendarConnection } = proxyActivities<CalendarActivities>({
  startToCloseTimeout: '10m',
  retry: { initialInterval: '5s', backoffCoefficient: 2, maximumInterval: '2m', maximumAttempts: 5 },
});

const FALLBACK_INTERVAL_MS = 5 * 60_000;

/** Patch id: the sync upserts `ConnectionStatus` (`ok`/`error`) when it changes (docs/operators.md). */
export const CONNECTION_STATUS_PATCH = 'calendar-sync-connection-status';

const at = (ms: number) => new Date(Date.now() + ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * One per calendar connection (`calendar-sync-<connection_id>`, docs/calendars.md): syncs at once,
 * then every CALENDAR_SYNC_INTERVAL (the activity says how long), and at once on
 * calendarSyncNowSignal. Ends when the connection is gone or on calendarSyncStopSignal; continues
 * as new every SYNCS_PER_RUN syncs so its history stays bounded.
 */
export async function calendarSyncWorkflow(input: CalendarSyncInput, state: CalendarSyncState = {}): Promise<string> {
  let requested = state.requested ?? false;
  let stopped = false;
  setHandler(calendarSyncNowSignal, () => void (requested = true));
  setHandler(calendarSyncStopSignal, () => void (stopped = true));
  let shownStatus: string | undefined;
  /** Current details (not a command) and, on a change, the ConnectionStatus search attribute. */
  const report = (outcome: 'ok' | 'error', message: string | null, waitMs: number) => {
    setCurrentDetails(
      `calendar sync: ${outcome === 'ok' ? `last sync ok${message ? ` (${message})` : ''}` : `last sync failed: ${message ?? 'error'}`}; next at ${at(waitMs)} (or on sync now)`,
    );
    if (shownStatus !== outcome && patched(CONNECTION_STATUS_PATCH))
      upsertSearchAttributes([{ key: SA.ConnectionStatus, value: [outcome] }]);
    shownStatus = outcome;
  };
  for (let i = 0; i < SYNCS_PER_RUN && !workflowInfo().continueAsNewSuggested; i++) {
    if (stopped) return 'stopped';
    requested = false;
    let waitMs = FALLBACK_INTERVAL_MS;
    setCurrentDetails('calendar sync: syncing now');
    try {
      const r = await syncCalendarConnection({ connectionId: input.connectionId });
      if (r.outcome === 'gone') {
        setCurrentDetails('calendar sync: ended, the connection is gone');
        return 'gone';
      }
      waitMs = r.nextSyncMs;
      report(r.outcome, r.message, waitMs);
    } catch {
      // Retries exhausted (the database is down?): try again at the next interval.
      setCurrentDetails(`calendar sync: the sync activity failed (database?); next at ${at(waitMs)}`);
    }
    await condition(() => requested || stopped, waitMs);
  }
  if (stopped) return 'stopped';
  return continueAsNew<typeof calendarSyncWorkflow>(input, { requested });
}
