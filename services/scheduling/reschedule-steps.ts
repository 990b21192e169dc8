import type { Executor } from '../../db/knex';
import { conflict } from '../../core/errors';
import type { Enqueue } from '../../temporal/outbox';
import { BOOKING_CODE_VERSION, type BookingWorkflowInput } from '../../workflows/scheduling/contract';
import { setStatus } from './meeting-status';
import { bookingStart } from './workflow-metadata';
import { carryZoomMeeting } from '../zoom/meetings';
import type { CalendarEventRow } from './present';
import type { MeetingRow } from '../meetings/row';

/** Statuses a meeting can be moved from (a pending request stays pending at its new time). */
export const MOVABLE_STATUSES = ['scheduled', 'pending_confirmation'];

/**
 * First step of a move, inside the claim's transaction (claim-slot.ts `first`), before the host locks:
 * lock the old meeting, check it can still move, mark it `rescheduled` (its slot stops blocking,
 * so the new time may overlap the old one).
 */
export async function releaseMovedMeeting(trx: Executor, input: { moving: MeetingRow }): Promise<void> {
  const { moving } = input;
  const current: MeetingRow | undefined = await trx('meetings').where({ id: moving.id }).forUpdate().first();
  if (!current || !MOVABLE_STATUSES.includes(current.status)) {
    throw conflict(`The meeting can no longer be moved (status: ${current?.status ?? 'deleted'})`, 'invalid_transition');
  }
  await setStatus(trx, { id: moving.id, status: 'rescheduled' });
}

/**
 * Last step of a move, after the new meeting's insert (claim-slot.ts `then`): link the two, move the calendar
 * event row to the new meeting, and start the new meeting's booking workflow (its first email is
 * the update). The old booking workflow is woken after the commit (reschedule.ts) and finds the
 * old meeting `rescheduled`, so it sends nothing more.
 */
export async function finishReschedule(
  trx: Executor,
  enqueue: Enqueue,
  s: {
    moving: MeetingRow;
    meetingId: string;
    teamId: string;
    hostUserId: string;
    title: string;
    start: number;
    end: number;
    emailKey: (email: string) => string;
  },
): Promise<{ meeting: MeetingRow; event: CalendarEventRow }> {
  await trx('meetings').where({ id: s.moving.id }).update({ rescheduled_to_id: s.meetingId, updated_at: trx.fn.now() });
  await carryZoomMeeting(trx, { fromId: s.moving.id, toId: s.meetingId });
  const [meeting] = await trx('meetings').where({ id: s.meetingId }).select('*');
  const times = { start_time: new Date(s.start), end_time: new Date(s.end) };
  const moved: CalendarEventRow[] = await trx('calendar_events')
    .where({ meeting_id: s.moving.id, source: 'meeting' })
    .update({ meeting_id: s.meetingId, host_user_id: s.hostUserId, ...times, updated_at: trx.fn.now() })
    .returning(['id', 'summary', 'start_time', 'end_time']);
  const event =
    moved[0] ??
    (
      await trx('calendar_events')
        .insert({
          team_id: s.teamId,
          host_user_id: s.hostUserId,
          meeting_id: s.meetingId,
          source: 'meeting',
          summary: s.title,
          location: meeting.meeting_link,
          ...times,
        })
        .returning(['id', 'summary', 'start_time', 'end_time'])
    )[0];
  const input: BookingWorkflowInput = {
    meetingId: s.meetingId,
    teamId: s.teamId,
    rescheduledFromId: s.moving.id,
    version: BOOKING_CODE_VERSION,
  };
  const memo = { attendee: meeting.attendee_email, start: new Date(s.start).toISOString(), rescheduledFrom: s.moving.id };
  await enqueue(bookingStart({ meeting, args: input, memo, emailKey: s.emailKey }));
  return { meeting, event };
}
