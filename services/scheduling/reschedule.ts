import type { ServiceDeps } from '../deps';
import { conflict, notFound } from '../../core/errors';
import { bookingWorkflowId, meetingCancelledSignal } from '../../workflows/scheduling/contract';
import { book, type CalendarEventRow } from './booking';
import type { MeetingRow } from './present';
import { MOVABLE_STATUSES } from './reschedule-steps';

export interface RescheduleInput {
  meetingId: string;
  /** Set for the host's API call (team scoping); an attendee's signed link names the meeting alone. */
  teamId?: string;
  /** New start, epoch ms; the meeting keeps its length. */
  start: number;
}

/**
 * Move a meeting to a new start: the same availability engine and the same booking transaction as
 * a new booking (services/scheduling/booking.ts, `rescheduleOf`), so a taken slot is 409 and a time
 * that would not be offered is 400. Answers the old meeting (now `rescheduled`) and the new one.
 */
export async function rescheduleMeeting(
  deps: ServiceDeps,
  input: RescheduleInput,
): Promise<{ old: MeetingRow; meeting: MeetingRow; event: CalendarEventRow }> {
  const q = deps.db('meetings').where({ id: input.meetingId });
  if (input.teamId) q.where({ team_id: input.teamId });
  const m: MeetingRow | undefined = await q.first();
  if (!m) throw notFound('Meeting');
  if (!MOVABLE_STATUSES.includes(m.status)) throw conflict(`A ${m.status} meeting cannot be rescheduled`, 'invalid_transition');
  const length = new Date(m.end_time).getTime() - new Date(m.start_time).getTime();
  const { meeting, event } = await book(deps, {
    teamId: m.team_id,
    userId: m.host_user_id,
    eventTypeId: m.event_type_id ?? undefined,
    pageId: m.scheduling_page_id ?? undefined,
    start: input.start,
    end: input.start + length,
    attendeeEmail: m.attendee_email,
    attendeeName: m.attendee_name,
    attendeePhone: m.attendee_phone ?? undefined,
    title: m.title,
    description: m.description ?? undefined,
    timezone: m.timezone,
    guests: m.guests,
    notes: m.notes ?? undefined,
    fieldValues: m.field_values,
    rescheduleOf: m,
  });
  // wake the old meeting's workflow so its reminders stop (it re-reads the status anyway)
  await deps.outbox.signal(bookingWorkflowId(m.id), meetingCancelledSignal);
  const old = await deps.db('meetings').where({ id: m.id }).first();
  if (!old) throw notFound('Meeting');
  return { old, meeting, event };
}
