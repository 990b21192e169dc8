import { z } from 'zod';
import { zId, zIsoTime } from '../envelope';
import { zEnrollment } from '../sequences/present';

/** Answer schemas of contacts and tags: the shapes of presentContact, contactDetail and presentTag. */

export const zTagRef = z.strictObject({ id: zId, name: z.string() });

export const zContact = z
  .strictObject({
    id: zId,
    email: z.string().nullable(),
    phone: z.string().nullable(),
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
    timezone: z.string().nullable(),
    custom_fields: z.record(z.string(), z.unknown()),
    tags: z.array(zTagRef),
    unsubscribed: z.strictObject({ email: z.boolean(), sms: z.boolean() }),
    created_at: zIsoTime,
    updated_at: zIsoTime,
  })
  .meta({ id: 'Contact' });

const zReplyEntry = z
  .strictObject({
    id: zId,
    type: z.literal('email.replied'),
    occurred_at: zIsoTime,
    email: z.strictObject({
      from: z.string(),
      subject: z.string(),
      excerpt: z.string().meta({ description: 'The first 500 characters of the plain text' }),
      message_id: z.string().nullable(),
      in_reply_to: z
        .strictObject({
          type: z.enum(['sequence', 'meeting', 'other']),
          message_id: z.string().nullable(),
          sequence_id: zId.nullable(),
          enrollment_id: zId.nullable(),
          step_id: zId.nullable(),
          meeting_id: zId.nullable(),
          email_kind: z.string().nullable().meta({ description: 'e.g. meeting.confirmation, meeting.reminder_24h, meeting.cancellation' }),
        })
        .meta({ description: 'The message of ours it answered' }),
    }),
  })
  .meta({ id: 'ContactTimelineReply' });

/** A routed submission and a meeting booked from one (docs/forms.md "Routing"). */
const zRoutedSubmissionEntry = z
  .strictObject({
    id: zId,
    type: z.literal('submission.routed'),
    occurred_at: zIsoTime,
    submission: z.strictObject({ id: zId, form_id: zId, form_title: z.string(), target: z.enum(['event_type', 'url', 'message']) }),
  })
  .meta({ id: 'ContactTimelineRoutedSubmission' });
const zRoutedMeetingEntry = z
  .strictObject({
    id: zId,
    type: z.literal('meeting.booked'),
    occurred_at: zIsoTime,
    meeting: z.strictObject({
      id: zId,
      start_time: zIsoTime,
      host_user_id: zId,
      source: z.literal('routing'),
      submission_id: zId.nullable(),
      form_id: zId.nullable(),
    }),
  })
  .meta({ id: 'ContactTimelineRoutedMeeting' });

export const zTimelineEntry = z
  .discriminatedUnion('type', [zReplyEntry, zRoutedSubmissionEntry, zRoutedMeetingEntry])
  .meta({ id: 'ContactTimelineEntry' });

export const zContactDetail = zContact
  .extend({
    enrollments: z.array(zEnrollment),
    meetings: z.array(zId).meta({ description: 'Ids of the meetings booked by this contact' }),
    submissions: z.array(zId).meta({ description: 'Ids of the submissions linked to this contact, newest first' }),
    timeline: z.array(zTimelineEntry).meta({
      description:
        'Replies to our mail (sequence steps, booking emails), routed submissions and the meetings booked from them, newest first, the last 100',
    }),
  })
  .meta({ id: 'ContactDetail' });

export const zTag = z.strictObject({ id: zId, name: z.string(), created_at: zIsoTime, updated_at: zIsoTime }).meta({ id: 'ContactTag' });
