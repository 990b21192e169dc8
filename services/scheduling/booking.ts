import { keyOfAnotherTeam } from '../../core/errors';
import type { Executor } from '../../db/knex';
import { jsonb } from '../../db/jsonb';
import type { Enqueue } from '../../temporal/outbox';
import { routedMeetingBookedSignal, unbookedFollowUpWorkflowId } from '../../workflows/forms/contract';
import { BOOKING_CODE_VERSION, type BookingWorkflowInput } from '../../workflows/scheduling/contract';
import { upsertContactByEmail } from '../contact-rows/upsert';
import type { ServiceDeps } from '../deps';
import { recordEvent } from '../events/record';
import type { MeetingRow } from '../meetings/row';
import { emailKeyer } from '../operators/email-key';
import type { RoutedSubmission } from '../routing-token/prefill-token';
import { onMeetingBooked } from '../sequences/hooks';
import { claimSlot, type SlotRequest } from './claim-slot';
import type { CalendarEventRow } from './present';
import { routedColumns, routedSubmission } from './routed';
import { bookingStart } from './workflow-metadata';

export type { CalendarEventRow } from './present';

export interface BookingRequest extends SlotRequest {
  attendeeEmail: string;
  attendeeName?: string;
  attendeePhone?: string;
  title?: string;
  description?: string;
  timezone: string;
  notes?: string;
  fieldValues: Record<string, unknown>;
  contactCustomFields?: Record<string, unknown>;
  /** A routed submission's prefill token (docs/forms.md "Routing"): its hosts only, and the meeting links it. */
  routingToken?: string;
  /** The team of the API key a server booked with (docs/getting-started.md): another team's page is a 403. */
  callerTeamId?: string;
}

function splitName(name: string | undefined, email: string): { first_name?: string; last_name?: string } {
  if (!name || name === email) return {};
  const [first, ...rest] = name.trim().split(/\s+/);
  return { first_name: first, last_name: rest.join(' ') || undefined };
}

/**
 * Book a new meeting: claim the slot (claim-slot.ts: the slot check, the host locks, the meeting
 * and its host rows) and, in the same transaction, upsert the attendee's contact (under the lock,
 * so the meeting row is written once, with its contact), add the calendar event, call the
 * sequences hook, record `meeting.booked` and write the booking workflow's outbox row.
 */
export async function book(deps: ServiceDeps, req: BookingRequest): Promise<{ meeting: MeetingRow; event: CalendarEventRow }> {
  const emailKey = await emailKeyer(deps); // read once per process, before the transaction
  const routed = req.routingToken
    ? await routedSubmission(deps.db, { token: req.routingToken, eventTypeId: req.eventTypeId, path: 'body.routing_token' })
    : null;
  const booked = await claimSlot(deps, {
    request: routed ? { ...req, hostSubset: routed.routing.host_user_ids } : req,
    columns: (ctx) => {
      if (req.callerTeamId && req.callerTeamId !== ctx.teamId) throw keyOfAnotherTeam();
      const et = ctx.eventType;
      const attendeeName = req.attendeeName?.trim() || req.attendeeEmail;
      const provider = deps.video.providerOf(et?.location_type ?? null);
      const meetingLink = provider?.planRoom().link || null; // Zoom: none until the workflow made the meeting
      return {
        title: req.title ?? `${et?.title ?? 'Meeting'} with ${attendeeName}`,
        description: req.description ?? et?.description ?? null,
        attendee_name: attendeeName,
        attendee_email: req.attendeeEmail,
        attendee_phone: req.attendeePhone ?? null,
        timezone: req.timezone,
        status: et?.requires_confirmation ? 'pending_confirmation' : 'scheduled',
        location_type: et?.location_type ?? null,
        meeting_link: meetingLink ?? et?.location_value ?? null,
        notes: req.notes ?? null,
        guests: jsonb(req.guests),
        field_values: jsonb(req.fieldValues),
        ...(routed ? routedColumns(routed, req.fieldValues) : {}),
      };
    },
    underLock: async (trx, ctx) => {
      const contact = await upsertContactByEmail(trx, {
        teamId: ctx.teamId,
        contact: {
          email: req.attendeeEmail,
          ...splitName(req.attendeeName, req.attendeeEmail),
          phone: req.attendeePhone,
          timezone: req.timezone,
          custom_fields: req.contactCustomFields,
        },
      });
      return { contact_id: contact.id };
    },
    then: async (trx, enqueue, { meeting, ctx }) => {
      const contactId = meeting.contact_id;
      if (!contactId) throw new Error('a new booking always has its contact');
      const [event] = await trx('calendar_events')
        .insert({
          team_id: ctx.teamId,
          host_user_id: meeting.host_user_id,
          meeting_id: meeting.id,
          source: 'meeting',
          summary: meeting.title,
          description: req.description ?? null,
          location: meeting.meeting_link,
          start_time: new Date(req.start),
          end_time: new Date(req.end),
        })
        .returning(['id', 'summary', 'start_time', 'end_time']);
      await onMeetingBooked(trx, enqueue, { teamId: ctx.teamId, contactId, meetingId: meeting.id, status: meeting.status });
      await recordMeetingBooked(trx, enqueue, { meeting, routed });
      const input: BookingWorkflowInput = { meetingId: meeting.id, teamId: ctx.teamId, version: BOOKING_CODE_VERSION };
      const memo = { attendee: req.attendeeEmail, start: new Date(req.start).toISOString() };
      await enqueue(bookingStart({ meeting: { ...meeting, contact_id: contactId }, args: input, memo, emailKey }));
      return { meeting, event };
    },
  });
  // The routed submission's unbooked follow-up ends (best effort: its activity re-checks the meetings).
  if (routed?.followsUp) await deps.outbox.signal(unbookedFollowUpWorkflowId(routed.id), routedMeetingBookedSignal);
  return booked;
}

/**
 * `meeting.booked` for every new booking (docs/webhooks.md): the meeting, and how it came: `source:
 * "routing"` with the form and the submission when it was booked from a routed submission, else
 * `source: null` and those three null. Recorded in the booking's transaction; a subscription with a
 * `form_id` receives only the bookings routed from that form.
 */
export async function recordMeetingBooked(
  trx: Executor,
  enqueue: Enqueue,
  { meeting, routed }: { meeting: MeetingRow; routed: RoutedSubmission | null },
): Promise<void> {
  await recordEvent(trx, enqueue, {
    teamId: meeting.team_id,
    type: 'meeting.booked',
    formId: routed?.formId ?? null,
    payload: {
      event: 'meeting.booked',
      timestamp: new Date().toISOString(),
      data: {
        meeting_id: meeting.id,
        event_type_id: meeting.event_type_id,
        scheduling_page_id: meeting.scheduling_page_id,
        host_user_id: meeting.host_user_id,
        contact_id: meeting.contact_id,
        attendee_email: meeting.attendee_email,
        start_time: new Date(meeting.start_time).toISOString(),
        end_time: new Date(meeting.end_time).toISOString(),
        status: meeting.status,
        source: routed ? 'routing' : null,
        form_id: routed?.formId ?? null,
        form_title: routed?.formTitle ?? null,
        submission_id: routed?.id ?? null,
      },
    },
  });
}
