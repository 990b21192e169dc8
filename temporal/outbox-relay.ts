import type { Db } from '../db/knex';
import type { DirectRegistry } from './outbox-direct';
import type { OutboxRow, RowStarter } from './outbox-start';

export interface RelayParts {
  db: Db;
  starter: RowStarter;
  direct: DirectRegistry;
  /** How long a pass leases the rows it takes (config OUTBOX_LEASE_MS). */
  leaseMs: number;
}

/**
 * One relay pass over rows older than `minAgeMs`, in one statement: it leases up to `batch`
 * pending rows (`FOR UPDATE SKIP LOCKED`, so relays in several workers never take the same row),
 * then starts their workflows, or hands them to their direct handler (not awaited). A relay lost
 * in between leaves the lease to expire; a start that already happened is only marked. Returns
 * how many rows it started or handed over.
 */
export async function relayPass(parts: RelayParts, minAgeMs = 2000, batch = 200): Promise<number> {
  const { db, starter, direct } = parts;
  const types = direct.types();
  const pending = db('outbox')
    .select('id')
    .whereNull('started_at')
    .where((w) => w.whereNull('lease_until').orWhere('lease_until', '<', db.fn.now()));
  if (minAgeMs > 0) pending.where('created_at', '<', new Date(Date.now() - minAgeMs));
  if (types.length > 0 && direct.full()) pending.whereNot((w) => w.whereIn('workflow_type', types).whereNull('relayed_at'));
  // Rows that failed before go last: a few that can never start must not hold up new ones.
  pending
    .orderBy([{ column: 'attempts' }, { column: 'id' }])
    .limit(batch)
    .forUpdate()
    .skipLocked();
  const rows: OutboxRow[] = await db('outbox')
    .whereIn('id', pending)
    .update({ lease_until: db.raw(`now() + ? * interval '1 millisecond'`, [parts.leaseMs]), leases: db.raw('leases + 1') })
    .returning('*');
  rows.sort((a, b) => a.attempts - b.attempts || Number(a.id) - Number(b.id));
  const handed = rows.filter((r) => direct.takes(r));
  for (const row of handed) direct.handle({ ...row, id: Number(row.id) });
  return handed.length + (await starter.startRows(rows.filter((r) => !direct.takes(r))));
}
