/**
 * The settings `npm run dev` gives the Temporal dev server (bin/dev.ts passes the same list), so
 * that the benches measure what users run. SQLite in WAL mode with `synchronous=normal`: a commit
 * appends to the log without an fsync of the database file each time; measured at about twice the
 * workflows/s of the default rollback journal (docs/decisions.md "The Temporal dev server").
 * A crash of the machine can lose the last commits of a development server; nothing else changes.
 */
export const DEV_SERVER_SQLITE_ARGS = ['--sqlite-pragma', 'journal_mode=wal', '--sqlite-pragma', 'synchronous=normal'] as const;
