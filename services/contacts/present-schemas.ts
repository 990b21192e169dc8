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

export const zTimelineEntry = z
  .strictObject({
    id: zId,
    type: z.enum(['email.replied']),
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
  .meta({ id: 'ContactTimelineEntry' });

export const zContactDetail = zContact
  .extend({
    enrollments: z.array(zEnrollment),
    meetings: z.array(zId).meta({ description: 'Ids of the meetings booked by this contact' }),
    submissions: z.array(zId).meta({ description: 'Ids of the submissions linked to this contact, newest first' }),
    timeline: z
      .array(zTimelineEntry)
      .meta({ description: 'Replies to our mail (sequence steps, booking emails), newest first, the last 100' }),
  })
  .meta({ id: 'ContactDetail' });

export const zTag = z.strictObject({ id: zId, name: z.string(), created_at: zIsoTime, updated_at: zIsoTime }).meta({ id: 'ContactTag' });
