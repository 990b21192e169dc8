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

export const zContactDetail = zContact
  .extend({
    enrollments: z.array(zEnrollment),
    meetings: z.array(zId).meta({ description: 'Ids of the meetings booked by this contact' }),
    submissions: z.array(zId).meta({ description: 'Ids of the submissions linked to this contact, newest first' }),
  })
  .meta({ id: 'ContactDetail' });

export const zTag = z.strictObject({ id: zId, name: z.string(), created_at: zIsoTime, updated_at: zIsoTime }).meta({ id: 'ContactTag' });
