/**
 * What a sync could not read inside readable calendar objects (lines, VTIMEZONEs, events;
 * domain/calendars/expand.ts readBusy): stored per object, summed on the connection, and said in
 * its status_message and the sync workflow's details (docs/calendars.md, "One bad line").
 */
import type { Skipped } from '../../domain/calendars/expand';
import type { Executor } from '../../db/knex';
import { jsonb } from '../../db/jsonb';
import { SKIPPED_KEPT, type ObjectSkipped } from './busy';

export interface ConnectionSkipped {
  count: number;
  /** The first SKIPPED_KEPT, each prefixed with its object's href when the connection has several. */
  first: Skipped[];
}

/**
 * Stores each object's skipped parts: cleared first on every object expanded again (all of them when
 * `all`, else those at `hrefs`), then set on the objects that skipped something.
 */
export async function saveObjectSkipped(
  trx: Executor,
  input: { connectionId: string; all: boolean; hrefs: string[]; skipped: ObjectSkipped[] },
): Promise<void> {
  const cleared = trx('calendar_objects').where({ connection_id: input.connectionId });
  if (!input.all && input.hrefs.length === 0) return;
  if (!input.all) cleared.whereRaw('href = ANY(?::text[])', [input.hrefs]);
  await cleared.update({ skipped_count: 0, skipped: jsonb<Skipped[]>([]) });
  for (const s of input.skipped) {
    await trx('calendar_objects')
      .where({ connection_id: input.connectionId, href: s.href })
      .update({ skipped_count: s.count, skipped: jsonb(s.first) });
  }
}

/** The connection's skipped parts, over all its stored objects. */
export async function connectionSkipped(trx: Executor, connectionId: string): Promise<ConnectionSkipped> {
  const rows = await trx('calendar_objects')
    .where({ connection_id: connectionId })
    .where('skipped_count', '>', 0)
    .orderBy('href')
    .select('href', 'skipped_count', 'skipped');
  const count = rows.reduce((n, r) => n + r.skipped_count, 0);
  const several = rows.length > 1;
  const first = rows
    .flatMap((r) => r.skipped.map((s) => (several ? { what: `${r.href}: ${s.what}`, reason: s.reason } : s)))
    .slice(0, SKIPPED_KEPT);
  return { count, first };
}

/** "3 calendar components could not be read and were skipped (VEVENT abc: RRULE has an unknown part: UNTL)". */
export function skippedSentence(s: ConnectionSkipped): string | null {
  if (s.count === 0) return null;
  const example = s.first[0] ? ` (${s.first[0].what}: ${s.first[0].reason})` : '';
  return `${s.count} calendar ${s.count === 1 ? 'component' : 'components'} could not be read and ${s.count === 1 ? 'was' : 'were'} skipped${example}`;
}
