/**
 * Hosts' merged busy time from connected calendars (calendar_user_busy.busy_ms), kept parsed in
 * this process by row version, so that availability does not ship and parse every host's whole
 * list on every request (about 90 KB for a round-robin page of 20 hosts with 500 busy intervals
 * each: most of what connected calendars added to a 13-day lookup, docs/calendars.md "Speed").
 *
 * The database stays the truth: the statement that loads the hosts' schedules
 * (services/scheduling/host-schedules.ts) sends the versions this process holds, and gets back a
 * host's text only when the row's version differs (a sync changed it since). A version is the
 * row's xmin (a committed update always writes a new one) with its updated_at. Bounded: the least
 * recently used lists go first.
 */

export interface HeldBusy {
  version: string;
  /** start, end, start, end… epoch ms, sorted and merged (as busy_ms). */
  ms: Float64Array;
}

/** The row version the statement computes: `<xmin>.<updated_at in epoch microseconds>`. */
export const BUSY_VERSION_SQL = `(xmin::text || '.' || (extract(epoch FROM updated_at) * 1000000)::bigint::text)`;

export class BusyCache {
  private readonly lists = new Map<string, HeldBusy>();
  private numbers = 0;

  /** @param maxNumbers bound on the epoch-ms values held (8 bytes each): 2 million, 16 MB. */
  constructor(private readonly maxNumbers = 2_000_000) {}

  /** What this process holds for these users (to send as `<user id> <version>` with the statement). */
  held(userIds: readonly string[]): Map<string, HeldBusy> {
    const out = new Map<string, HeldBusy>();
    for (const id of userIds) {
      const e = this.lists.get(id);
      if (!e) continue;
      this.lists.delete(id); // most recently used last
      this.lists.set(id, e);
      out.set(id, e);
    }
    return out;
  }

  /** A user's list as read at `version` (a "start,end,…" text), parsed and kept. */
  put(userId: string, version: string, text: string): Float64Array {
    const ms = text === '' ? new Float64Array(0) : Float64Array.from(text.split(','), Number);
    const old = this.lists.get(userId);
    if (old) {
      this.numbers -= old.ms.length;
      this.lists.delete(userId);
    }
    this.lists.set(userId, { version, ms });
    this.numbers += ms.length;
    for (const [id, e] of this.lists) {
      if (this.numbers <= this.maxNumbers || id === userId) break;
      this.lists.delete(id);
      this.numbers -= e.ms.length;
    }
    return ms;
  }

  get size(): number {
    return this.lists.size;
  }
}

/** This process's cache (API and worker processes each have their own). */
export const busyCache = new BusyCache();

/** The intervals of a sorted, merged start/end list that overlap [lo, hi). */
export function overlappingIn(ms: Float64Array, lo: number, hi: number): Array<{ start: number; end: number }> {
  const pairs = ms.length >> 1;
  // First interval ending after lo (binary search over the ends), then on while starts are before hi.
  let a = 0;
  let b = pairs;
  while (a < b) {
    const mid = (a + b) >> 1;
    if (ms[2 * mid + 1] > lo) b = mid;
    else a = mid + 1;
  }
  const list: Array<{ start: number; end: number }> = [];
  for (let i = a; i < pairs && ms[2 * i] < hi; i++) list.push({ start: ms[2 * i], end: ms[2 * i + 1] });
  return list;
}
