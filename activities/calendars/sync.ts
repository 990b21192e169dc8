import { ApplicationFailure } from '@temporalio/activity';
import { CalendarRateLimitedError } from '../../core/calendars/provider-http';
import { syncConnection, type SyncResult } from '../../services/calendars/sync';
import type { ActivityDeps } from '../deps';

/** Calendar sync activities (workflows/calendars/sync.ts). Credentials are read here, never passed through a workflow's history. */
export function calendarActivities(deps: Pick<ActivityDeps, 'db' | 'config' | 'mailer'>) {
  return {
    /**
     * One sync of one connection; remote failures are recorded on the connection and returned, not
     * thrown. Google's and Graph's rate limits (429, 403 rateLimitExceeded, 503 with Retry-After) are retried after its Retry-After (or a
     * jittered backoff) through nextRetryDelay.
     */
    async syncCalendarConnection(input: { connectionId: string }): Promise<SyncResult> {
      try {
        return await syncConnection(deps, { connectionId: input.connectionId });
      } catch (err) {
        if (err instanceof CalendarRateLimitedError)
          throw ApplicationFailure.create({ message: err.message, type: 'CalendarRateLimited', nextRetryDelay: err.retryAfterMs });
        throw err;
      }
    },
  };
}

export type CalendarActivities = ReturnType<typeof calendarActivities>;
