import { z } from 'zod';
import { defineRoute } from '../../http/route';
import { paginationQuery, toPage } from '../../../services/pagination';
import { zIanaZone, zIdParams, zUuid } from '../../../core/validate';
import { contactDetail, deleteContact, listContacts, updateContact } from '../../../services/contacts/contacts';
import { addTag, removeTag } from '../../../services/contacts/tags';
import { text } from '../../../services/forms/schemas';

const tags = ['contacts'];
const contactTagParams = z.strictObject({ id: zUuid, tag_id: zUuid });

export const contactRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/v1/contacts',
    auth: { scope: 'contacts:read' },
    summary: 'List contacts (newest first); filter by form_id, email, tag_id, or search with q',
    tags,
    query: z.object({
      ...paginationQuery,
      form_id: zUuid.optional(),
      tag_id: zUuid.optional(),
      email: text(254, 1).optional(),
      q: text(200, 1).optional(),
    }),
    handler: ({ query, principal, deps }) => listContacts(deps.db, principal.teamId, toPage(query), query),
  }),
  defineRoute({
    method: 'get',
    path: '/api/v1/contacts/:id',
    auth: { scope: 'contacts:read' },
    summary: 'Read a contact with its tags, enrollments, meetings and submissions',
    tags,
    params: zIdParams,
    handler: async ({ params, principal, deps }) => ({ data: await contactDetail(deps.db, principal.teamId, params.id) }),
  }),
  defineRoute({
    method: 'patch',
    path: '/api/v1/contacts/:id',
    auth: { scope: 'contacts:write' },
    summary: 'Update a contact; custom_fields merge by key and a null value removes the key',
    tags,
    params: zIdParams,
    body: z.strictObject({
      email: z.email().max(254).nullable().optional(),
      phone: z
        .string()
        .max(30)
        .regex(/^\+?[0-9 ()\-.]{5,30}$/, { error: 'must be a phone number' })
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
    }),
    handler: async ({ params, body, principal, deps }) => ({ data: await updateContact(deps.db, principal.teamId, params.id, body) }),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/v1/contacts/:id',
    auth: { scope: 'contacts:delete' },
    summary: "Erase the contact's personal data and stop its enrollments",
    tags,
    params: zIdParams,
    status: 204,
    handler: ({ params, principal, deps }) => deleteContact(deps, principal.teamId, params.id),
  }),
  defineRoute({
    method: 'post',
    path: '/api/v1/contacts/:id/tags',
    auth: { scope: 'contacts:write' },
    summary: 'Add a tag to a contact (already there is fine); answers with the contact',
    tags,
    params: zIdParams,
    body: z.strictObject({ tag_id: zUuid }),
    handler: async ({ params, body, principal, deps }) => ({ data: await addTag(deps.db, principal.teamId, params.id, body.tag_id) }),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/v1/contacts/:id/tags/:tag_id',
    auth: { scope: 'contacts:write' },
    summary: 'Remove a tag from a contact',
    tags,
    params: contactTagParams,
    status: 204,
    handler: ({ params, principal, deps }) => removeTag(deps.db, principal.teamId, params.id, params.tag_id),
  }),
];
