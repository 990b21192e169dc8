import { condition, continueAsNew, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { CalendarActivities } from '../../activities/calendars/sync';
import { calendarSyncNowSignal, calendarSyncStopSignal, SYNCS_PER_RUN, type CalendarSyncInput, type CalendarSyncState } from './contract';

// A remote failure is not an activity failure (the activity records it on the connection and
// returns); only database trouble throws, and is retried here with backoff.
const { syncCalendarConnection } = proxyActivities<CalendarActivities>({
  startToCloseTimeout: '10m',
  retry: { initialInterval: '5s', backoffCoefficient: 2, maximumInterval: '2m', maximumAttempts: 5 },
});

const FALLBACK_INTERVAL_MS = 5 * 60_000;

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
  for (let i = 0; i < SYNCS_PER_RUN && !workflowInfo().continueAsNewSuggested; i++) {
    if (stopped) return 'stopped';
    requested = false;
    let waitMs = FALLBACK_INTERVAL_MS;
    try {
      const r = await syncCalendarConnection({ connectionId: input.connectionId });
      if (r.outcome === 'gone') return 'gone';
      waitMs = r.nextSyncMs;
    } catch {
      // Retries exhausted (the database is down?): try again at the next interval.
    }
    await condition(() => requested || stopped, waitMs);
  }
  if (stopped) return 'stopped';
  return continueAsNew<typeof calendarSyncWorkflow>(input, { requested });
}
