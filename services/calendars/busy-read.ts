import type { Executor } from '../../db/knex';

/**
 * The busy time of hosts' connected calendars that overlaps [from, to), read from each host's
 * merged row (calendar_user_busy, services/calendars/user-busy.ts): one primary-key lookup per
 * host, the intersection with the range computed by Postgres and sent as one line of epoch
 * milliseconds, so a host with hundreds of events costs one short row (bench/calendars.bench.ts).
 * A connection in error keeps blocking with what its last good sync cached.
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
    `SELECT u.user_id AS id,
            string_agg((extract(epoch FROM lower(r)) * 1000)::bigint || ',' || (extract(epoch FROM upper(r)) * 1000)::bigint, ',') AS busy
       FROM calendar_user_busy u, unnest(u.busy * tstzmultirange(tstzrange(?, ?))) AS r
      WHERE u.user_id = ANY(?::uuid[])
      GROUP BY u.user_id`,
    [from, to, hostIds],
  );
  for (const row of rows as Array<{ id: string; busy: string }>) {
    const n = row.busy.split(',');
    const list: Array<{ start: number; end: number }> = [];
    for (let i = 0; i + 1 < n.length; i += 2) list.push({ start: Number(n[i]), end: Number(n[i + 1]) });
    out.set(row.id, list);
  }
  return out;
}

/** Whether any of the hosts has busy time from connected calendars overlapping [from, to) (the booking transaction's check). */
export async function hasExternalBusy(db: Executor, hostIds: string[], from: Date, to: Date): Promise<boolean> {
  if (hostIds.length === 0) return false;
  const { rows } = await db.raw('SELECT 1 FROM calendar_user_busy WHERE user_id = ANY(?::uuid[]) AND busy && tstzrange(?, ?) LIMIT 1', [
    hostIds,
    from,
    to,
  ]);
  return rows.length > 0;
}
