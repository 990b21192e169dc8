import type { ServiceDeps } from '../deps';
import { conflict, notFound } from '../../core/errors';
import { jsonb } from '../../db/jsonb';
import { icalUidOf } from '../../domain/ics';
import { bookingWorkflowId, meetingCancelledSignal } from '../../workflows/scheduling/contract';
import { emailKeyer } from '../operators/email-key';
import { claimSlot } from './claim-slot';
import type { CalendarEventRow } from './present';
import type { MeetingRow } from '../meetings/row';
import { finishReschedule, MOVABLE_STATUSES, releaseMovedMeeting } from './reschedule-steps';

export interface RescheduleInput {
  meetingId: string;
  /** Set for the host's API call (team scoping); an attendee's signed link names the meeting alone. */
  teamId?: string;
  /** New start, epoch ms; the meeting keeps its length. */
  start: number;
}

/**
 * Move a meeting to a new start: the same slot claim as a new booking (claim-slot.ts), so a taken
 * slot is 409 and a time that would not be offered is 400. In the claim's transaction the old
 * meeting becomes `rescheduled` (its slot no longer blocks), the new one keeps its attendee,
 * contact, status, link and iCalendar UID (SEQUENCE + 1), and the two are linked both ways
 * (reschedule-steps.ts). Answers the old meeting (now `rescheduled`) and the new one.
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
  const start = input.start;
  const end = input.start + length;
  const emailKey = await emailKeyer(deps); // read once per process, before the transaction
  const { meeting, event } = await claimSlot(deps, {
    request: {
      teamId: m.team_id,
      userId: m.host_user_id,
      eventTypeId: m.event_type_id ?? undefined,
      pageId: m.scheduling_page_id ?? undefined,
      start,
      end,
      guests: m.guests,
    },
    replacing: m,
    columns: (ctx) => ({
      title: m.title,
      description: m.description ?? ctx.eventType?.description ?? null,
      attendee_name: m.attendee_name?.trim() || m.attendee_email,
      attendee_email: m.attendee_email,
      attendee_phone: m.attendee_phone ?? null,
      timezone: m.timezone,
      // a confirmed meeting stays confirmed when it moves
      status: m.status,
      location_type: ctx.eventType?.location_type ?? null,
      meeting_link: m.meeting_link ?? ctx.eventType?.location_value ?? null,
      notes: m.notes ?? null,
      guests: jsonb(m.guests),
      field_values: jsonb(m.field_values),
      contact_id: m.contact_id,
      ical_uid: icalUidOf(m),
      ical_sequence: m.ical_sequence + 1,
      rescheduled_from_id: m.id,
    }),
    first: (trx) => releaseMovedMeeting(trx, { moving: m }),
    then: (trx, enqueue, { meeting: moved, ctx }) =>
      finishReschedule(trx, enqueue, {
        moving: m,
        meetingId: moved.id,
        teamId: ctx.teamId,
        hostUserId: moved.host_user_id,
        title: m.title,
        start,
        end,
        emailKey,
      }),
  });
  // wake the old meeting's workflow so its reminders stop (it re-reads the status anyway)
  await deps.outbox.signal(bookingWorkflowId(m.id), meetingCancelledSignal);
  const old = await deps.db('meetings').where({ id: m.id }).first();
  if (!old) throw notFound('Meeting');
  return { old, meeting, event };
}
