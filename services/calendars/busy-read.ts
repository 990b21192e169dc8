import type { Executor } from '../../db/knex';

/*
 * The busy time of hosts' connected calendars is read from each host's merged row
 * (calendar_user_busy, services/calendars/user-busy.ts) by services/scheduling/host-schedules.ts, in
 * the one statement that loads the hosts' schedules, and kept parsed in the process by row version
 * (services/calendars/busy-cache.ts): a host's list crosses from the database only when a sync
 * changed it, so the slot engine's cost does not grow with the host's calendar
 * (bench/calendars.bench.ts). A connection in error keeps blocking with what its last good sync
 * cached.
 */

/** Whether any of the hosts has busy time from connected calendars overlapping [from, to) (the booking transaction's check). */
export async function hasExternalBusy(trx: Executor, input: { hostIds: string[]; from: Date; to: Date }): Promise<boolean> {
  const { hostIds, from, to } = input;
  if (hostIds.length === 0) return false;
  const { rows } = await trx.raw('SELECT 1 FROM calendar_user_busy WHERE user_id = ANY(?::uuid[]) AND busy && tstzrange(?, ?) LIMIT 1', [
    hostIds,
    from,
    to,
  ]);
  return rows.length > 0;
}
