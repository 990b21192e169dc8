import type { Db } from '../../db/knex';
import type { ServiceDeps } from '../deps';
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

export async function listSchedules(deps: Pick<ServiceDeps, 'db'>, input: { teamId: string; page: Page; userId?: string }) {
  const { db } = deps;
  const { teamId, page, userId } = input;
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

export async function readSchedule(deps: Pick<ServiceDeps, 'db'>, input: { teamId: string; id: string }) {
  const { db } = deps;
  const { teamId, id } = input;
  const row = await scheduleRow(db, teamId, id);
  return presentSchedule(row, (await overridesOf(db, [id])).get(id) ?? []);
}

export interface UpdateScheduleInput {
  teamId: string;
  id: string;
  changes: { name?: string; timezone?: string; rules?: RuleInput[] };
}

/** Dashboard only: replace the name, timezone and/or weekly rules. */
export async function updateSchedule(deps: Pick<ServiceDeps, 'db'>, input: UpdateScheduleInput) {
  const { db } = deps;
  const { teamId, id, changes } = input;
  await scheduleRow(db, teamId, id);
  const patch: Record<string, unknown> = {};
  if (changes.name !== undefined) patch.name = changes.name;
  if (changes.timezone !== undefined) patch.timezone = changes.timezone;
  if (changes.rules !== undefined) patch.rules = JSON.stringify(changes.rules);
  if (Object.keys(patch).length)
    await db('availability_schedules')
      .where({ id })
      .update({ ...patch, updated_at: db.fn.now() });
  return readSchedule(deps, { teamId, id });
}

export interface AddOverrideInput {
  teamId: string;
  id: string;
  values: { date: string; is_unavailable: boolean; start?: string; end?: string; reason?: string };
}

/** Dashboard only: one override per date; it replaces the whole day's rules. */
export async function addOverride(deps: Pick<ServiceDeps, 'db'>, input: AddOverrideInput) {
  const { db } = deps;
  const { teamId, id, values } = input;
  await scheduleRow(db, teamId, id);
  try {
    await db('availability_date_overrides').insert({
      schedule_id: id,
      date: values.date,
      is_unavailable: values.is_unavailable,
      start: values.is_unavailable ? null : values.start,
      end: values.is_unavailable ? null : values.end,
      reason: values.reason ?? null,
    });
  } catch (err) {
    if ((err as { code?: string }).code === '23505') throw conflict(`An override for ${values.date} already exists`);
    throw err;
  }
  return readSchedule(deps, { teamId, id });
}

export interface DeleteOverrideInput {
  teamId: string;
  id: string;
  overrideId: string;
}

export async function deleteOverride(deps: Pick<ServiceDeps, 'db'>, input: DeleteOverrideInput): Promise<void> {
  const { db } = deps;
  const { teamId, id, overrideId } = input;
  await scheduleRow(db, teamId, id);
  const n = await db('availability_date_overrides').where({ id: overrideId, schedule_id: id }).delete();
  if (!n) throw notFound('Date override');
}
