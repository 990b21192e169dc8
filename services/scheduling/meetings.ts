import type { Executor } from '../../db/knex';
import { canTransition, type MeetingStatus } from '../../domain/meeting-state';
import { transactionWithOutbox } from '../../temporal/outbox';
import type { ServiceDeps } from '../deps';
import { conflict, notFound, validationFailed } from '../../core/errors';
import { onMeetingBooked } from '../sequences/hooks';
import { rescheduleMeeting } from './reschedule';
import { paginate, type Page } from '../pagination';
import { presentMeeting, presentMeetingSummary } from './present';
import type { MeetingRow } from '../meetings/row';
import { hostCalendarLink } from './feed';
import { followupStart } from '../meeting-followup/workflow-starts';
import { freshRecording } from '../meeting-followup/recording-link';
import { ACTIVE_STATUSES, enqueueCleanup, setStatus } from './meeting-status';
import { bookingWorkflowId, meetingCancelledSignal, meetingConfirmedSignal } from '../../workflows/scheduling/contract';

export interface MeetingFilters {
  status?: MeetingStatus;
  since?: Date;
  until?: Date;
  scheduling_page_id?: string;
}

export interface ListMeetingsInput {
  teamId: string;
  page: Page;
  filters: MeetingFilters;
}

/** Ordered by start time (DESIGN.md "Lists"), earliest first. */
export function listMeetings(deps: Pick<ServiceDeps, 'db'>, input: ListMeetingsInput) {
  const { db } = deps;
  const { teamId, page, filters: f } = input;
  const base = db('meetings').where({ team_id: teamId });
  if (f.status) base.where({ status: f.status });
  if (f.since) base.where('start_time', '>', f.since);
  if (f.until) base.where('start_time', '<', f.until);
  if (f.scheduling_page_id) base.where({ scheduling_page_id: f.scheduling_page_id });
  return paginate(
    base,
    page,
    [
      { column: 'start_time', order: 'asc' },
      { column: 'id', order: 'asc' },
    ],
    presentMeetingSummary,
  );
}

async function meetingRow(db: Executor, teamId: string, id: string, lock = false): Promise<MeetingRow> {
  const q = db('meetings').where({ id, team_id: teamId }).first();
  const row = await (lock ? q.forUpdate() : q);
  if (!row) throw notFound('Meeting');
  return row;
}

/** A meeting for the team's own API, with the link that opens it for the host. */
export async function presentForTeam(deps: Pick<ServiceDeps, 'db' | 'config'>, input: { meeting: MeetingRow }) {
  const { meeting: m } = input;
  return presentMeeting(m, await hostCalendarLink(deps, { meeting: m }));
}

/** One meeting; a provider's recording gets a fresh access link (services/meeting-followup/recording-link.ts). */
export async function readMeeting(deps: Pick<ServiceDeps, 'db' | 'config' | 'video'>, input: { teamId: string; id: string }) {
  const { teamId, id } = input;
  const m = await meetingRow(deps.db, teamId, id);
  return presentForTeam(deps, { meeting: { ...m, recording: await freshRecording(deps, { meeting: m }) } });
}

export interface UpdateMeetingInput {
  teamId: string;
  id: string;
  changes: { status?: MeetingStatus; notes?: string | null; cancellation_reason?: string; start_time?: string };
}

/**
 * PATCH: status (DESIGN.md transition table; the same status again is a no-op), notes, and
 * cancellation_reason (only together with, or on, a cancelled meeting). Anything else: 409.
 */

export async function updateMeeting(deps: ServiceDeps, input: UpdateMeetingInput) {
  const { teamId, id, changes: patch } = input;
  if (patch.start_time !== undefined) {
    if (patch.status !== undefined || patch.cancellation_reason !== undefined || patch.notes !== undefined) {
      throw validationFailed([
        { path: 'body.start_time', message: 'a reschedule (start_time) is sent alone, without status, notes or cancellation_reason' },
      ]);
    }
    const { old } = await rescheduleMeeting(deps, { meetingId: id, teamId, start: Date.parse(patch.start_time) });
    return presentForTeam(deps, { meeting: old });
  }
  let signal: typeof meetingCancelledSignal | typeof meetingConfirmedSignal | undefined;
  const row = await transactionWithOutbox(deps.db, deps.outbox, async (trx, enqueue) => {
    const m = await meetingRow(trx, teamId, id, true);
    const target = patch.status ?? (m.status as MeetingStatus);
    const changes = target !== m.status;
    if (changes && !canTransition(m.status as MeetingStatus, target)) {
      throw conflict(`A meeting cannot move from ${m.status} to ${target}`, 'invalid_transition');
    }
    if (patch.cancellation_reason !== undefined && target !== 'cancelled') {
      throw conflict('cancellation_reason can only be set when cancelling the meeting', 'invalid_transition');
    }
    const extra: Record<string, unknown> = {};
    if (patch.notes !== undefined) extra.notes = patch.notes;
    if (patch.cancellation_reason !== undefined) extra.cancellation_reason = patch.cancellation_reason;
    if (!changes) {
      if (!Object.keys(extra).length) return m;
      const [r] = await trx('meetings')
        .where({ id })
        .update({ ...extra, updated_at: trx.fn.now() })
        .returning('*');
      return r;
    }
    const updated = await setStatus(trx, { id, status: target, extra });
    if (target === 'cancelled') {
      await enqueueCleanup(trx, enqueue, { meeting: updated, reason: updated.cancellation_reason, notifyAttendee: true });
      signal = meetingCancelledSignal;
    } else if (target === 'completed') {
      await enqueue(followupStart(updated));
    } else if (m.status === 'pending_confirmation' && target === 'scheduled') {
      signal = meetingConfirmedSignal;
      // a request counts as "meeting booked" for sequences only once it is confirmed
      if (updated.contact_id) await onMeetingBooked(trx, enqueue, { teamId, contactId: updated.contact_id, meetingId: id });
    }
    return updated;
  });
  if (signal) await deps.outbox.signal(bookingWorkflowId(id), signal);
  return presentForTeam(deps, { meeting: row });
}

/** DELETE: the record goes; a meeting still to happen gets the cleanup (video, calendar, email). */
export async function deleteMeeting(deps: ServiceDeps, input: { teamId: string; id: string }): Promise<void> {
  const { teamId, id } = input;
  await transactionWithOutbox(deps.db, deps.outbox, async (trx, enqueue) => {
    const m = await meetingRow(trx, teamId, id, true);
    await enqueueCleanup(trx, enqueue, { meeting: m, reason: 'deleted', notifyAttendee: ACTIVE_STATUSES.includes(m.status) });
    await trx('meetings').where({ id }).delete();
  });
  await deps.outbox.signal(bookingWorkflowId(id), meetingCancelledSignal);
}
