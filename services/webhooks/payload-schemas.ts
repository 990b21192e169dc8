import { z } from 'zod';
import { zRouted } from '../forms/present-schemas';
import { zId, zIsoTime } from '../envelope';

/**
 * Webhook bodies of the routing events (docs/webhooks.md), for the OpenAPI document's `webhooks`
 * section: `submission.routed` (the submission.created shape with the target) and `meeting.booked`
 * (a meeting booked from a routed submission: how it came, the form and the submission).
 */
export const zSubmissionRoutedEvent = z
  .strictObject({
    event: z.literal('submission.routed'),
    timestamp: zIsoTime,
    data: z.strictObject({
      form_id: zId,
      form_title: z.string(),
      form_slug: z.string(),
      submission_id: zId,
      submission_data: z.record(z.string(), z.unknown()),
      submitted_at: zIsoTime,
      metadata: z.record(z.string(), z.string().nullable()),
      score: z.number().optional(),
      max_score: z.number().nullable().optional(),
      routing: zRouted.omit({ prefill_token: true, prefill: true }),
    }),
  })
  .meta({ id: 'SubmissionRoutedEvent' });

export const zMeetingBookedEvent = z
  .strictObject({
    event: z.literal('meeting.booked'),
    timestamp: zIsoTime,
    data: z.strictObject({
      meeting_id: zId,
      event_type_id: zId.nullable(),
      scheduling_page_id: zId.nullable(),
      host_user_id: zId,
      contact_id: zId.nullable(),
      attendee_email: z.string(),
      start_time: zIsoTime,
      end_time: zIsoTime,
      status: z.string(),
      source: z.literal('routing').nullable(),
      form_id: zId.nullable(),
      form_title: z.string().nullable(),
      submission_id: zId.nullable(),
    }),
  })
  .meta({ id: 'MeetingBookedEvent' });
