import { z } from 'zod';
import { paginationQuery } from '../../../services/pagination';
import { dataOf, listOf } from '../../../services/envelope';
import { zIanaZone, zUuid } from '../../../core/validate';
import { text } from '../../../services/forms/schemas';
import { zContact, zContactDetail, zTag } from '../../../services/contacts/present-schemas';

/** Request and answer schemas of the contacts and contact-tags routes. */

export const contactListQuery = z.object({
  ...paginationQuery,
  form_id: zUuid.optional(),
  tag_id: zUuid.optional(),
  email: text(254, 1).optional(),
  q: text(200, 1).optional(),
});
export const contactPatchBody = z.strictObject({
  email: z.email().max(254).nullable().optional(),
  phone: z
    .string()
    .max(30)
    .regex(/^\+?[0-9 ()\-.]{5,30}$/, { error: 'must be a phone number' })
    .meta({ example: '+15551234567' })
    .nullable()
    .optional(),
  first_name: text(200).nullable().optional(),
  last_name: text(200).nullable().optional(),
  timezone: zIanaZone.nullable().optional(),
  custom_fields: z
    .record(z.string().min(1).max(100), z.unknown())
    .refine((o) => Object.keys(o).length <= 200, { error: 'at most 200 keys' })
    .refine((o) => JSON.stringify(o).length <= 64 * 1024, { error: 'must be at most 64 KB' })
    .optional(),
});
export const contactTagBody = z.strictObject({ tag_id: zUuid });
export const contactTagParams = z.strictObject({ id: zUuid, tag_id: zUuid });
export const tagListQuery = z.object({ ...paginationQuery });
export const tagBody = z.strictObject({ name: text(100, 1).refine((s) => s.trim().length > 0, { error: 'must not be blank' }) });
export const tagParams = z.strictObject({ tag_id: zUuid });

export const contactList = listOf(zContact);
export const contactAnswer = dataOf(zContactDetail);
export const contactWithTagsAnswer = dataOf(zContact);
export const tagAnswer = dataOf(zTag);
export const tagList = listOf(zTag);
