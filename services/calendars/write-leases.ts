import { logger } from '../../core/logger';
import type { ServiceDeps } from '../deps';

/**
 * Calendar writes in flight per account (docs/calendars.md "Limits"): every provider call that writes
 * or removes a booking's event (write-back.ts, and through it the Google Meet and Teams room steps)
 * holds a lease in calendar_write_leases (migration 030) on its connection, across every worker.
 * - Taken in one transaction under an advisory lock on the connection: expired leases are dropped,
 *   the live ones counted, and one is added only while fewer than `CALENDAR_WRITES_PER_ACCOUNT`.
 * - None free: `CalendarWriteBusy` is thrown at once (never a wait in the activity); the activity
 *   turns it into a retry after a short jittered delay (activities/calendars/write-back.ts).
 * - Deleted when the call is over, whatever its outcome; a lease of a worker that died expires after
 *   `WRITE_LEASE_MS`, the write activity's start-to-close timeout (each HTTP exchange is 20 s at most).
 */

export const WRITE_LEASE_MS = 120_000;

/** No write slot is free on the connection now; the activity tries again shortly. */
export class CalendarWriteBusy extends Error {
  constructor(
    readonly connectionId: string,
    readonly limit: number,
  ) {
    super(`${limit} calendar writes are already in flight on connection ${connectionId}; trying again shortly`);
    this.name = 'CalendarWriteBusy';
  }
}

type Deps = Pick<ServiceDeps, 'db' | 'config'>;

/** A lease on one of the connection's write slots, or null when all are taken. */
export async function takeWriteLease(deps: Deps, input: { connectionId: string }): Promise<string | null> {
  const { connectionId } = input;
  const limit = deps.config.CALENDAR_WRITES_PER_ACCOUNT;
  return deps.db.transaction(async (trx) => {
    await trx.raw('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [`calendar-write:${connectionId}`]);
    await trx('calendar_write_leases').where({ connection_id: connectionId }).where('expires_at', '<=', trx.fn.now()).delete();
    const live = await trx('calendar_write_leases').where({ connection_id: connectionId }).count<{ n: string }[]>({ n: '*' });
    if (Number(live[0].n) >= limit) return null;
    const [row] = await trx('calendar_write_leases')
      .insert({ connection_id: connectionId, expires_at: trx.raw(`now() + ? * interval '1 millisecond'`, [WRITE_LEASE_MS]) })
      .returning('id');
    return row.id as string;
  });
}

/** Run one provider call of a calendar write while holding a slot of its connection; `CalendarWriteBusy` when none is free. */
export async function withWriteSlot<T>(deps: Deps, input: { connectionId: string; run: () => Promise<T> }): Promise<T> {
  const { connectionId, run } = input;
  const lease = await takeWriteLease(deps, { connectionId });
  if (!lease) throw new CalendarWriteBusy(connectionId, deps.config.CALENDAR_WRITES_PER_ACCOUNT);
  try {
    return await run();
  } finally {
    await deps
      .db('calendar_write_leases')
      .where({ id: lease })
      .delete()
      .catch((err: unknown) => logger.warn({ connectionId, err }, 'could not release a calendar write lease; it expires by itself'));
  }
}
