import type { Db } from '../../db/knex';
import { conflict, notFound } from '../../core/errors';
import { paginate, type Page } from '../pagination';
import { presentSchedule, type OverrideRow, type ScheduleRow } from './present';

export interface RuleInput {
  day: number;
  start: string;
  end: string;
  enabled: boolean;
}

async function scheduleRow(db: Db, teamId: string, id: string): Promise<ScheduleRow> {
  const row = await db('availability_schedules').where({ id, team_id: teamId }).first();
  if (!row) throw notFound('Availability schedule');
  return row;
}

async function overridesOf(db: Db, scheduleIds: string[]): Promise<Map<string, OverrideRow[]>> {
  const rows: OverrideRow[] = await db('availability_date_overrides')
    .whereIn('schedule_id', scheduleIds)
    .orderBy([{ column: 'date' }, { column: 'id' }]);
  const map = new Map<string, OverrideRow[]>();
  for (const r of rows) map.set(r.schedule_id, [...(map.get(r.schedule_id) ?? []), r]);
  return map;
}

export async function listSchedules(db: Db, teamId: string, page: Page, userId?: string) {
  const base = db('availability_schedules').where({ team_id: teamId });
  if (userId) base.where({ user_id: userId });
  const result = await paginate(
    base,
    page,
    [
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ],
    (r: ScheduleRow) => r,
  );
  const overrides = await overridesOf(
    db,
    result.data.map((s) => s.id),
  );
  return { ...result, data: result.data.map((s) => presentSchedule(s, overrides.get(s.id) ?? [])) };
}

export async function readSchedule(db: Db, teamId: string, id: string) {
  const row = await scheduleRow(db, teamId, id);
  return presentSchedule(row, (await overridesOf(db, [id])).get(id) ?? []);
}

/** Dashboard only: replace the name, timezone and/or weekly rules. */
export async function updateSchedule(db: Db, teamId: string, id: string, input: { name?: string; timezone?: string; rules?: RuleInput[] }) {
  await scheduleRow(db, teamId, id);
  const patch: Record<string, unknown> = {};
  if (input.name !== undefined) patch.name = input.name;
  if (input.timezone !== undefined) patch.timezone = input.timezone;
  if (input.rules !== undefined) patch.rules = JSON.stringify(input.rules);
  if (Object.keys(patch).length)
    await db('availability_schedules')
      .where({ id })
      .update({ ...patch, updated_at: db.fn.now() });
  return readSchedule(db, teamId, id);
}

/** Dashboard only: one override per date; it replaces the whole day's rules. */
export async function addOverride(
  db: Db,
  teamId: string,
  id: string,
  input: { date: string; is_unavailable: boolean; start?: string; end?: string; reason?: string },
) {
  await scheduleRow(db, teamId, id);
  try {
    await db('availability_date_overrides').insert({
      schedule_id: id,
      date: input.date,
      is_unavailable: input.is_unavailable,
      start: input.is_unavailable ? null : input.start,
      end: input.is_unavailable ? null : input.end,
      reason: input.reason ?? null,
    });
  } catch (err) {
    if ((err as { code?: string }).code === '23505') throw conflict(`An override for ${input.date} already exists`);
    throw err;
  }
  return readSchedule(db, teamId, id);
}

export async function deleteOverride(db: Db, teamId: string, id: string, overrideId: string): Promise<void> {
  await scheduleRow(db, teamId, id);
  const n = await db('availability_date_overrides').where({ id: overrideId, schedule_id: id }).delete();
  if (!n) throw notFound('Date override');
}
