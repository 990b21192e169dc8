import type { Executor } from '../../db/knex';

/**
 * The cached busy time of hosts' connected calendars that overlaps [from, to): CalDAV calendars
 * checked for conflicts, and feeds always. One index probe per host (GiST on user and time range),
 * so the cost follows the rows returned, not the rows stored. A connection in error keeps blocking
 * with what its last good sync cached.
 */
export async function externalBusy(
  db: Executor,
  hostIds: string[],
  from: Date,
  to: Date,
): Promise<Array<{ host_user_id: string; start_time: Date; end_time: Date }>> {
  if (hostIds.length === 0) return [];
  const { rows } = await db.raw(
    `SELECT h.id AS host_user_id, b.start_time, b.end_time
       FROM unnest(?::uuid[]) AS h(id)
       JOIN LATERAL (
         SELECT b.start_time, b.end_time, b.calendar_id
           FROM calendar_busy_times b
          WHERE b.user_id = h.id AND tstzrange(b.start_time, b.end_time) && tstzrange(?, ?)
       ) b ON true
      WHERE b.calendar_id IS NULL
         OR NOT EXISTS (SELECT 1 FROM calendar_connection_calendars c WHERE c.id = b.calendar_id AND NOT c.check_conflicts)`,
    [hostIds, from, to],
  );
  return rows;
}

/** Whether any of the hosts has cached external busy time overlapping [from, to) (the booking transaction's check). */
export async function hasExternalBusy(db: Executor, hostIds: string[], from: Date, to: Date): Promise<boolean> {
  return (await externalBusy(db, hostIds, from, to)).length > 0;
}
