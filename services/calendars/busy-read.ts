import type { Executor } from '../../db/knex';

/**
 * The cached busy time of hosts' connected calendars that overlaps [from, to): CalDAV calendars
 * checked for conflicts, and feeds always. One index probe per host (GiST on user and time range);
 * Postgres merges each host's overlapping intervals (range_agg) and sends them as one line of
 * epoch milliseconds per host, so a host with hundreds of events costs one short row, not hundreds
 * of timestamp rows to parse (bench/calendars.bench.ts). A connection in error keeps blocking with
 * what its last good sync cached.
 */
export async function externalBusy(
  db: Executor,
  hostIds: string[],
  from: Date,
  to: Date,
): Promise<Map<string, Array<{ start: number; end: number }>>> {
  const out = new Map<string, Array<{ start: number; end: number }>>();
  if (hostIds.length === 0) return out;
  const { rows } = await db.raw(
    `SELECT m.id, string_agg((extract(epoch FROM lower(r)) * 1000)::bigint || ',' || (extract(epoch FROM upper(r)) * 1000)::bigint, ',') AS busy
       FROM (SELECT h.id, range_agg(tstzrange(b.start_time, b.end_time)) AS merged
               FROM unnest(?::uuid[]) AS h(id)
               JOIN LATERAL (
                 SELECT b.start_time, b.end_time, b.calendar_id
                   FROM calendar_busy_times b
                  WHERE b.user_id = h.id AND tstzrange(b.start_time, b.end_time) && tstzrange(?, ?)
               ) b ON true
              WHERE b.calendar_id IS NULL
                 OR NOT EXISTS (SELECT 1 FROM calendar_connection_calendars c WHERE c.id = b.calendar_id AND NOT c.check_conflicts)
              GROUP BY h.id) m,
            unnest(m.merged) AS r
      GROUP BY m.id`,
    [hostIds, from, to],
  );
  for (const row of rows as Array<{ id: string; busy: string }>) {
    const n = row.busy.split(',');
    const list: Array<{ start: number; end: number }> = [];
    for (let i = 0; i + 1 < n.length; i += 2) list.push({ start: Number(n[i]), end: Number(n[i + 1]) });
    out.set(row.id, list);
  }
  return out;
}

/** Whether any of the hosts has cached external busy time overlapping [from, to) (the booking transaction's check). */
export async function hasExternalBusy(db: Executor, hostIds: string[], from: Date, to: Date): Promise<boolean> {
  if (hostIds.length === 0) return false;
  const { rows } = await db.raw(
    `SELECT 1 FROM unnest(?::uuid[]) AS h(id)
      WHERE EXISTS (
        SELECT 1 FROM calendar_busy_times b
         WHERE b.user_id = h.id AND tstzrange(b.start_time, b.end_time) && tstzrange(?, ?)
           AND (b.calendar_id IS NULL
                OR NOT EXISTS (SELECT 1 FROM calendar_connection_calendars c WHERE c.id = b.calendar_id AND NOT c.check_conflicts)))
      LIMIT 1`,
    [hostIds, from, to],
  );
  return rows.length > 0;
}
