import type { Executor } from '../../db/knex';

/*
 * The busy time of hosts' connected calendars is read from each host's merged row
 * (calendar_user_busy, services/calendars/user-busy.ts) by services/scheduling/host-schedules.ts, in
 * the one statement that loads the hosts' schedules: one short text of epoch milliseconds per host,
 * however many events are behind it, so the slot engine's cost does not grow with the host's
 * calendar (bench/calendars.bench.ts). A connection in error keeps blocking with what its last good
 * sync cached.
 */

/** One "start,end" pair of 13-digit epoch milliseconds (2001-09-09 to 2286-11-20) with its trailing comma. */
const PAIR = 28;

/**
 * The intervals of a sorted, merged "start,end,…" list that overlap [lo, hi). Reads only the part
 * it needs: the numbers are 13 digits each in every window the service uses, so the list is a
 * fixed-width array searched in place (a host's whole list was split and parsed on every lookup
 * before: 0.14 ms a host of 500 intervals, most of a round-robin lookup's calendar cost). Any other
 * shape is split and parsed as before.
 */
export function overlapping(text: string, lo: number, hi: number): Array<{ start: number; end: number }> {
  const pairs = (text.length + 1) / PAIR;
  if (!Number.isInteger(pairs) || pairs === 0) return overlappingSplit(text, lo, hi);
  const num = (i: number): number => {
    const sep = text.charCodeAt(i * 14 + 13);
    if (sep !== 44 && i * 14 + 13 !== text.length) return NaN;
    return Number(text.slice(i * 14, i * 14 + 13));
  };
  // First interval ending after lo (binary search over the ends), then on while starts are before hi.
  let a = 0;
  let b = pairs;
  while (a < b) {
    const mid = (a + b) >> 1;
    const end = num(2 * mid + 1);
    if (Number.isNaN(end)) return overlappingSplit(text, lo, hi);
    if (end > lo) b = mid;
    else a = mid + 1;
  }
  const list: Array<{ start: number; end: number }> = [];
  for (let i = a; i < pairs; i++) {
    const start = num(2 * i);
    const end = num(2 * i + 1);
    if (Number.isNaN(start) || Number.isNaN(end)) return overlappingSplit(text, lo, hi);
    if (start >= hi) break;
    list.push({ start, end });
  }
  return list;
}

function overlappingSplit(text: string, lo: number, hi: number): Array<{ start: number; end: number }> {
  const n = text.split(',').map(Number);
  let a = 0;
  let b = n.length >> 1;
  while (a < b) {
    const mid = (a + b) >> 1;
    if (n[2 * mid + 1] > lo) b = mid;
    else a = mid + 1;
  }
  const list: Array<{ start: number; end: number }> = [];
  for (let i = a; 2 * i + 1 < n.length && n[2 * i] < hi; i++) list.push({ start: n[2 * i], end: n[2 * i + 1] });
  return list;
}

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
