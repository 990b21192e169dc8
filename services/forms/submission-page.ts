import type { Knex } from 'knex';
import type { Db } from '../../db/knex';
import type { ServiceDeps } from '../deps';

const DAY_MS = 86_400_000;

export interface WindowFilters {
  status?: 'completed' | 'partial';
  /** Exclusive bounds on submitted_at. */
  since?: string;
  until?: string;
}

/** Where the wanted page starts: rows strictly before `before` (if set), skipping `offset` of them. */
export interface PageSeek {
  total: number;
  before: Date | null;
  offset: number;
}

const dayStart = (d: Date) => new Date(Math.floor(d.getTime() / DAY_MS) * DAY_MS);
const isoDay = (d: Date) => d.toISOString().slice(0, 10);

function rowsQuery(db: Db, formId: string, f: WindowFilters): Knex.QueryBuilder {
  const q = db('submissions').where({ form_id: formId });
  if (f.status) q.where({ status: f.status });
  if (f.since) q.where('submitted_at', '>', f.since);
  if (f.until) q.where('submitted_at', '<', f.until);
  return q;
}

async function exactCount(q: Knex.QueryBuilder): Promise<number> {
  const r = await q.clone().count<{ n: number }[]>({ n: '*' }).first();
  return Number(r?.n ?? 0);
}

export interface SeekPageInput {
  formId: string;
  filters: WindowFilters;
  offset: number;
}

/**
 * Total and page position for a form's submissions, newest first, from the per-day counters
 * (`submission_counts`): whole UTC days inside the window are summed from the counters, the
 * partial days at the window's edges are counted exactly (an index range scan of at most a day).
 * A deep page then starts at the end of the day that holds its first row, so the row query skips
 * at most one day of index entries instead of up to the whole form.
 */
export async function seekPage(deps: Pick<ServiceDeps, 'db'>, { formId, filters: f, offset }: SeekPageInput): Promise<PageSeek> {
  const { db } = deps;
  const since = f.since ? new Date(f.since) : null;
  const until = f.until ? new Date(f.until) : null;
  // Whole days: [lowDay, highDay). The low edge is (since, lowDay); the high edge is [highDay, until).
  const lowDay = since ? new Date(dayStart(since).getTime() + DAY_MS) : null;
  const highDay = until ? dayStart(until) : null;
  const base = rowsQuery(db, formId, f);
  if (lowDay && highDay && highDay < lowDay) {
    // The window lies within one day: count it exactly.
    return { total: await exactCount(base), before: null, offset };
  }
  const days = db('submission_counts')
    .where({ form_id: formId })
    .select('day')
    .sum({ n: 'n' })
    .groupBy('day')
    .havingRaw('sum(n) <> 0')
    .orderBy('day', 'desc');
  if (f.status) days.where({ status: f.status });
  if (lowDay) days.where('day', '>=', isoDay(lowDay));
  if (highDay) days.where('day', '<', isoDay(highDay));
  const [dayRows, lowEdge, highEdge] = await Promise.all([
    days.then((r) => r as unknown as Array<{ day: string; n: string | number }>),
    lowDay ? exactCount(base.clone().where('submitted_at', '<', lowDay)) : 0,
    highDay ? exactCount(base.clone().where('submitted_at', '>=', highDay)) : 0,
  ]);
  const counts = dayRows.map((r) => ({ day: r.day, n: Number(r.n) }));
  const total = highEdge + lowEdge + counts.reduce((t, r) => t + r.n, 0);
  if (offset < highEdge) return { total, before: null, offset };
  let skipped = highEdge;
  for (const { day, n } of counts) {
    if (skipped + n > offset) return { total, before: new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS), offset: offset - skipped };
    skipped += n;
  }
  return {
    total,
    before: lowDay ?? (counts.length ? new Date(`${counts[counts.length - 1].day}T00:00:00Z`) : null),
    offset: offset - skipped,
  };
}

export interface PageRowsInput {
  formId: string;
  filters: WindowFilters;
  seek: PageSeek;
  limit: number;
  columns: string[];
}

/** The page's rows: the filters, bounded by the seek, newest first. */
export function pageRows(deps: Pick<ServiceDeps, 'db'>, input: PageRowsInput): Knex.QueryBuilder {
  const { db } = deps;
  const { formId, filters: f, seek, limit, columns } = input;
  const q = rowsQuery(db, formId, f).select(columns);
  if (seek.before) q.where('submitted_at', '<', seek.before);
  return q
    .orderBy([
      { column: 'submitted_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(limit)
    .offset(seek.offset);
}
