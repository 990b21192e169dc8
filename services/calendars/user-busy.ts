import type { Executor } from '../../db/knex';

/**
 * Fail closed (docs/calendars.md "Google Calendar", "Microsoft 365"): a Google or Microsoft connection that needs to be connected
 * again, that was never read, or that was last read longer ago than this, blocks all of its host's
 * time (one interval from BLOCK_FROM to BLOCK_UNTIL), so the host offers no times until it is read.
 * The reconcile rewrites the row of a host whose connection crossed the limit without a sync.
 */
export const PROVIDER_STALE_LIMIT_MS = 30 * 60_000;
export const GOOGLE_STALE_LIMIT_MS = PROVIDER_STALE_LIMIT_MS;
/** The connections read through a provider's API, to which the fail-closed rule applies. */
export const API_KINDS = ['google', 'microsoft'] as const;
const BLOCK_FROM = '1970-01-01T00:00:00Z';
const BLOCK_UNTIL = '2200-01-01T00:00:00Z';

/**
 * Each user's busy time from connected calendars, merged into one row (calendar_user_busy): the
 * union of the cached busy intervals of every calendar that blocks (checked for conflicts) and
 * every feed. The slot engine reads this row, one per host, whatever the number of events behind it.
 *
 * Call refreshUserBusy in the transaction of every change to calendar_busy_times or to a
 * calendar's check_conflicts (sync, delete, patch). A per-user advisory lock makes concurrent
 * refreshes of one user take turns, so each one reads the rows the previous one committed.
 */
export async function refreshUserBusy(trx: Executor, userIds: string[]): Promise<void> {
  for (const userId of [...new Set(userIds)].sort()) {
    await trx.raw('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [`calendar-busy:${userId}`]);
    await trx.raw(
      `WITH m AS (
         SELECT coalesce(range_agg(x.r), '{}'::tstzmultirange) AS busy FROM (
           SELECT tstzrange(b.start_time, b.end_time) AS r
             FROM calendar_busy_times b
            WHERE b.user_id = ?
              AND (b.calendar_id IS NULL
                   OR NOT EXISTS (SELECT 1 FROM calendar_connection_calendars c WHERE c.id = b.calendar_id AND NOT c.check_conflicts))
           UNION ALL
           SELECT tstzrange(?::timestamptz, ?::timestamptz) FROM calendar_connections g
            WHERE g.user_id = ? AND g.kind IN ('google', 'microsoft') AND g.status <> 'disconnecting'
              AND (g.status = 'needs_reauth' OR g.last_read_at IS NULL OR g.last_read_at < now() - ?::interval)) x)
       INSERT INTO calendar_user_busy (user_id, busy, busy_ms, updated_at)
       SELECT ?::uuid, m.busy,
              coalesce((SELECT string_agg((date_part('epoch', lower(r)) * 1000)::bigint || ',' || (date_part('epoch', upper(r)) * 1000)::bigint, ','
                                          ORDER BY lower(r))
                          FROM unnest(m.busy) AS r), ''),
              now()
         FROM m
       ON CONFLICT (user_id) DO UPDATE SET busy = EXCLUDED.busy, busy_ms = EXCLUDED.busy_ms, updated_at = EXCLUDED.updated_at`,
      [userId, BLOCK_FROM, BLOCK_UNTIL, userId, `${PROVIDER_STALE_LIMIT_MS} milliseconds`, userId],
    );
  }
}
