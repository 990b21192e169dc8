import { syncConnection, type SyncResult } from '../../services/calendars/sync';
import type { ActivityDeps } from '../deps';

/** Calendar sync activities (workflows/calendars/sync.ts). Credentials are read here, never passed through a workflow's history. */
export function calendarActivities(deps: Pick<ActivityDeps, 'db' | 'config'>) {
  return {
    /** One sync of one connection; remote failures are recorded on the connection and returned, not thrown. */
    async syncCalendarConnection(input: { connectionId: string }): Promise<SyncResult> {
      return syncConnection(deps, { connectionId: input.connectionId });
    },
  };
}

export type CalendarActivities = ReturnType<typeof calendarActivities>;
