import type { Executor } from '../../db/knex';
import { jsonb } from '../../db/jsonb';
import type { Enqueue } from '../../temporal/outbox';
import { validationFailed } from '../../core/errors';
import { recordEvent } from '../events/record';
import { readPrefillToken, type RoutedSubmission } from '../forms/routing';
import type { MeetingRow } from '../meetings/row';

/**
 * The routed submission a booking or slot lookup names by its prefill token (docs/forms.md
 * "Routing"): valid, unexpired, and routed to this event type; otherwise a 400 on `path`.
 */
export async function routedSubmission(
  db: Executor,
  { token, eventTypeId, path }: { token: string; eventTypeId: string | undefined; path: string },
): Promise<RoutedSubmission> {
  const routed = await readPrefillToken(db, { token });
  if (!routed) throw validationFailed([{ path, message: 'is not a valid routing token, or it expired' }]);
  if (routed.routing.event_type_id !== eventTypeId)
    throw validationFailed([{ path, message: 'the submission was routed to another event type' }]);
  return routed;
}

/** A routed booking's own columns: its submission, form and source, and the answers in field_values. */
export function routedColumns(routed: RoutedSubmission, fieldValues: Record<string, unknown>) {
  return {
    submission_id: routed.id,
    form_id: routed.formId,
    source: 'routing' as const,
    field_values: jsonb<Record<string, unknown>>({ ...routed.fields, ...fieldValues }),
  };
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
