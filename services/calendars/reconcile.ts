/**
 * The calendar sync reconcile (maintenance task 'calendar-reconcile', services/maintenance/tasks.ts; run
 * on a Temporal Schedule): every connection without a running `calendar-sync-<id>` workflow gets one
 * (signal-with-start, so it syncs at once), and a connection whose last good sync is older than three
 * sync intervals shows `stale` with a message (docs/calendars.md, "When the sync stops").
 */
import type { ServiceDeps } from '../deps';
import { signalSyncNow, syncWorkflowRunning, type SyncTarget } from './sync-workflow';
import { API_KINDS, PROVIDER_STALE_LIMIT_MS, refreshUserBusy } from './user-busy';
import { syncIntervalMs } from './window';

/** A connection is stale when its last good sync (or its creation, before the first) is older than this many intervals. */
export const STALE_AFTER_INTERVALS = 3;

export interface ReconcileResult {
  connections: number;
  /** Connections whose workflow was not running and was started. */
  started: string[];
  /** Connections that could not be started (Temporal refused); the next reconcile tries again. */
  failed: string[];
  /** Connections newly marked stale. */
  stale: number;
}

export async function reconcileCalendarSyncs(deps: ServiceDeps, input: { now?: Date } = {}): Promise<ReconcileResult> {
  const { db } = deps;
  const now = input.now ?? new Date();
  const staleBefore = new Date(now.getTime() - STALE_AFTER_INTERVALS * syncIntervalMs(deps.config.CALENDAR_SYNC_INTERVAL));
  const staleRows = await db('calendar_connections')
    .whereIn('status', ['ok', 'syncing'])
    .whereRaw('coalesce(last_synced_at, created_at) < ?', [staleBefore])
    .update({
      status: 'stale',
      status_message: db.raw(
        `'no good sync since ' || to_char(coalesce(last_synced_at, created_at) at time zone 'UTC', 'YYYY-MM-DD HH24:MI "UTC"') || ` +
          `' (${STALE_AFTER_INTERVALS} sync intervals); the busy time of the last good sync still blocks, and the sync was restarted'`,
      ),
      updated_at: db.fn.now(),
    })
    .returning('id');
  // Google and Microsoft connections not read within the fail-closed limit block their host now, even without a sync.
  const unread = (await db('calendar_connections')
    .whereIn('kind', API_KINDS)
    .whereNot({ status: 'disconnecting' })
    .where('last_read_at', '<', new Date(now.getTime() - PROVIDER_STALE_LIMIT_MS))
    .distinct('user_id')) as Array<{ user_id: string }>;
  if (unread.length)
    await db.transaction((trx) =>
      refreshUserBusy(
        trx,
        unread.map((u) => u.user_id),
      ),
    );
  const rows = (await db('calendar_connections').select('id', 'team_id', 'user_id', 'kind').orderBy('created_at')) as SyncTarget[];
  const result: ReconcileResult = { connections: rows.length, started: [], failed: [], stale: staleRows.length };
  for (const conn of rows) {
    try {
      if (await syncWorkflowRunning(deps, conn.id)) continue;
      await signalSyncNow(deps, conn);
      result.started.push(conn.id);
    } catch {
      result.failed.push(conn.id);
    }
  }
  return result;
}
