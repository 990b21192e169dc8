/** What one sync of a connection answers its workflow (services/calendars/sync.ts, google-sync.ts). */
export interface SyncResult {
  outcome: 'ok' | 'error' | 'gone';
  /** Why it failed; for `ok`, what it skipped (null: nothing). */
  message: string | null;
  /** When the workflow syncs next (CALENDAR_SYNC_INTERVAL). */
  nextSyncMs: number;
}
