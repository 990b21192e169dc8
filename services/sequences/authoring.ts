import type { Executor } from '../../db/knex';
import { transactionWithOutbox } from '../../temporal/outbox';
import { ApiError, notFound, validationFailed, type ErrorDetail } from '../../core/errors';
import { paginate, type Page } from '../pagination';
import { exitEnrollments } from '../sequence-exits/exits';
import { presentSequence, presentStep, type SequenceRow, type StepRow } from './present';
import type { SequenceCreate, SequencePatch, StepInput } from './schemas';
import { signalEnrollments } from '../sequence-exits/signals';
import type { ServiceDeps } from '../deps';

const TRANSITIONS: Record<string, string[]> = {
  draft: ['draft', 'active', 'archived'],
  active: ['active', 'paused', 'archived'],
  paused: ['paused', 'active', 'archived'],
  archived: ['archived'],
};

export async function findSequence(db: Executor, input: { teamId: string; id: string; lock?: boolean }): Promise<SequenceRow> {
  const { teamId, id, lock = false } = input;
  const q = db('sequences').where({ team_id: teamId, id }).first();
  if (lock) q.forUpdate();
  const row: SequenceRow | undefined = await q;
  if (!row) throw notFound('Sequence');
  return row;
}

export function liveSteps(db: Executor, sequenceId: string): Promise<StepRow[]> {
  return db('sequence_steps').where({ sequence_id: sequenceId }).whereNull('deleted_at').orderBy('position');
}

async function checkOtherSequences(trx: Executor, teamId: string, selfId: string | null, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  const found: Array<{ id: string }> = await trx('sequences').where('team_id', teamId).whereIn('id', ids).select('id');
  const known = new Set(found.map((r) => r.id));
  const details: ErrorDetail[] = ids
    .map((id, i) => ({ id, i }))
    .filter(({ id }) => !known.has(id) || id === selfId)
    .map(({ id, i }) => ({
      path: `body.exit_on_added_to_sequence_ids.${i}`,
      message: id === selfId ? 'a sequence cannot list itself' : 'no such sequence in this team',
    }));
  if (details.length) throw validationFailed(details);
}

function checkShape(status: string, steps: Array<{ channel: string }>, sendFromNumber: string | null): void {
  const details: ErrorDetail[] = [];
  if (steps.some((s) => s.channel === 'sms') && !sendFromNumber) {
    details.push({ path: 'body.send_from_number', message: 'required when any step is SMS' });
  }
  if (status === 'active' && steps.length === 0)
    details.push({ path: 'body.steps', message: 'an active sequence needs at least one step' });
  if (details.length) throw validationFailed(details);
}

const stepColumns = (s: StepInput, position: number) => ({
  position,
  channel: s.channel,
  delay_value: s.delay.value,
  delay_unit: s.delay.unit,
  subject: s.channel === 'email' ? s.subject : null,
  body: s.body,
});

/** Replace the live steps: items with an `id` update that step in place, others are new, missing ones are retired. */
async function replaceSteps(trx: Executor, teamId: string, sequenceId: string, steps: StepInput[]): Promise<void> {
  const current = await liveSteps(trx, sequenceId);
  const currentIds = new Set(current.map((s) => s.id));
  const details = steps
    .map((s, i) => ({ s, i }))
    .filter(({ s }) => s.id && !currentIds.has(s.id))
    .map(({ i }) => ({ path: `body.steps.${i}.id`, message: 'no such step in this sequence' }));
  const ids = steps.map((s) => s.id).filter(Boolean);
  if (new Set(ids).size !== ids.length) details.push({ path: 'body.steps', message: 'a step id is listed twice' });
  if (details.length) throw validationFailed(details);
  const keep = new Set(ids);
  const retire = current.filter((s) => !keep.has(s.id)).map((s) => s.id);
  if (retire.length) await trx('sequence_steps').whereIn('id', retire).update({ deleted_at: trx.fn.now(), updated_at: trx.fn.now() });
  for (const [i, s] of steps.entries()) {
    if (s.id)
      await trx('sequence_steps')
        .where({ id: s.id })
        .update({ ...stepColumns(s, i), updated_at: trx.fn.now() });
    else await trx('sequence_steps').insert({ team_id: teamId, sequence_id: sequenceId, ...stepColumns(s, i) });
  }
}

export async function createSequence(deps: Pick<ServiceDeps, 'db'>, { teamId, values: input }: { teamId: string; values: SequenceCreate }) {
  const { db } = deps;
  checkShape(input.status, input.steps, input.send_from_number ?? null);
  return db.transaction(async (trx) => {
    await checkOtherSequences(trx, teamId, null, input.exit_on_added_to_sequence_ids);
    const [row]: SequenceRow[] = await trx('sequences')
      .insert({
        team_id: teamId,
        name: input.name,
        description: input.description ?? null,
        status: input.status,
        exit_on_meeting_booked: input.exit_on_meeting_booked,
        exit_on_reply: input.exit_on_reply,
        exit_on_added_to_sequence_ids: input.exit_on_added_to_sequence_ids,
        skip_if_meeting_booked: input.skip_if_meeting_booked,
        send_from_email: input.send_from_email ?? null,
        send_from_number: input.send_from_number ?? null,
        sending_window: input.sending_window ? JSON.stringify(input.sending_window) : null,
      })
      .returning('*');
    await replaceSteps(trx, teamId, row.id, input.steps);
    return presentSequence(row, await liveSteps(trx, row.id));
  });
}

export interface UpdateSequenceInput {
  teamId: string;
  id: string;
  changes: SequencePatch;
}

export async function updateSequence(deps: Pick<ServiceDeps, 'db' | 'outbox'>, input: UpdateSequenceInput) {
  const { db, outbox } = deps;
  const { teamId, id, changes: patch } = input;
  return transactionWithOutbox(db, outbox, async (trx, enqueue) => {
    const current = await findSequence(trx, { teamId, id, lock: true });
    const status = patch.status ?? current.status;
    if (current.status === 'archived') throw new ApiError(409, 'invalid_transition', 'An archived sequence cannot be changed');
    if (!TRANSITIONS[current.status].includes(status)) {
      throw new ApiError(409, 'invalid_transition', `A ${current.status} sequence cannot become ${status}`);
    }
    if (patch.exit_on_added_to_sequence_ids) await checkOtherSequences(trx, teamId, id, patch.exit_on_added_to_sequence_ids);
    if (patch.steps) await replaceSteps(trx, teamId, id, patch.steps);
    const steps = await liveSteps(trx, id);
    checkShape(status, steps, patch.send_from_number !== undefined ? patch.send_from_number : current.send_from_number);
    const set: Record<string, unknown> = { status, updated_at: trx.fn.now() };
    for (const k of [
      'name',
      'description',
      'exit_on_meeting_booked',
      'exit_on_reply',
      'exit_on_added_to_sequence_ids',
      'skip_if_meeting_booked',
      'send_from_email',
      'send_from_number',
    ] as const) {
      if (patch[k] !== undefined) set[k] = patch[k];
    }
    if (patch.sending_window !== undefined) set.sending_window = patch.sending_window ? JSON.stringify(patch.sending_window) : null;
    const [row]: SequenceRow[] = await trx('sequences').where({ id }).update(set).returning('*');
    if (status === 'archived' && current.status !== 'archived') {
      await exitEnrollments(trx, enqueue, { teamId, sequenceId: id, reason: 'sequence_archived' });
    }
    if (status === 'active' && current.status === 'paused') {
      const active: Array<{ id: string }> = await trx('sequence_enrollments').where({ sequence_id: id, status: 'active' }).select('id');
      await signalEnrollments(enqueue, { teamId, enrollmentIds: active.map((r) => r.id), signal: { name: 'resume' } });
    }
    return presentSequence(row, steps);
  });
}

export async function archiveSequence(
  deps: Pick<ServiceDeps, 'db' | 'outbox'>,
  { teamId, id }: { teamId: string; id: string },
): Promise<void> {
  const current = await findSequence(deps.db, { teamId, id });
  if (current.status !== 'archived') await updateSequence(deps, { teamId, id, changes: { status: 'archived' } });
}

export async function getSequence(deps: Pick<ServiceDeps, 'db'>, { teamId, id }: { teamId: string; id: string }) {
  const { db } = deps;
  const row = await findSequence(db, { teamId, id });
  return presentSequence(row, await liveSteps(db, id));
}

export async function listSteps(deps: Pick<ServiceDeps, 'db'>, { teamId, id }: { teamId: string; id: string }) {
  const { db } = deps;
  await findSequence(db, { teamId, id });
  return (await liveSteps(db, id)).map(presentStep);
}

export interface ListSequencesInput {
  teamId: string;
  page: Page;
  status?: string;
}

export function listSequences(deps: Pick<ServiceDeps, 'db'>, { teamId, page, status }: ListSequencesInput) {
  const { db } = deps;
  const q = db('sequences').where('team_id', teamId);
  if (status) q.where('status', status);
  return paginate(
    q,
    page,
    [
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ],
    (r: SequenceRow) => presentSequence(r),
  );
}
