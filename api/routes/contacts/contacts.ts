import { defineRoute } from '../../http/route';
import { toPage } from '../../../services/pagination';
import { zIdParams } from '../../../core/validate';
import { contactDetail, deleteContact, listContacts, updateContact } from '../../../services/contacts/contacts';
import { addTag, removeTag } from '../../../services/contacts/tags';
import {
  contactAnswer,
  contactList,
  contactListQuery,
  contactPatchBody,
  contactTagBody,
  contactTagParams,
  contactWithTagsAnswer,
} from './schema';

const tags = ['contacts'];

export const contactRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/v1/contacts',
    auth: { scope: 'contacts:read' },
    summary: 'List contacts (newest first); filter by form_id, email, tag_id, or search with q',
    tags,
    query: contactListQuery,
    response: contactList,
    handler: ({ query, principal, deps }) => listContacts(deps, { teamId: principal.teamId, page: toPage(query), filters: query }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/v1/contacts/:id',
    auth: { scope: 'contacts:read' },
    summary: 'Read a contact with its tags, enrollments, meetings and submissions',
    tags,
    params: zIdParams,
    response: contactAnswer,
    handler: async ({ params, principal, deps }) => ({ data: await contactDetail(deps, { teamId: principal.teamId, id: params.id }) }),
  }),
  defineRoute({
    method: 'patch',
    path: '/api/v1/contacts/:id',
    auth: { scope: 'contacts:write' },
    summary: 'Update a contact; custom_fields merge by key and a null value removes the key',
    tags,
    params: zIdParams,
    body: contactPatchBody,
    response: contactAnswer,
    conflict: 'Another contact of the team has this email',
    handler: async ({ params, body, principal, deps }) => ({
      data: await updateContact(deps, { teamId: principal.teamId, id: params.id, changes: body }),
    }),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/v1/contacts/:id',
    auth: { scope: 'contacts:delete' },
    summary: "Erase the contact's personal data and stop its enrollments",
    tags,
    params: zIdParams,
    status: 204,
    handler: ({ params, principal, deps }) => deleteContact(deps, { teamId: principal.teamId, id: params.id }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/v1/contacts/:id/tags',
    auth: { scope: 'contacts:write' },
    summary: 'Add a tag to a contact (already there is fine); answers with the contact',
    tags,
    params: zIdParams,
    body: contactTagBody,
    response: contactWithTagsAnswer,
    handler: async ({ params, body, principal, deps }) => ({
      data: await addTag(deps, { teamId: principal.teamId, contactId: params.id, tagId: body.tag_id }),
    }),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/v1/contacts/:id/tags/:tag_id',
    auth: { scope: 'contacts:write' },
    summary: 'Remove a tag from a contact',
    tags,
    params: contactTagParams,
    status: 204,
    handler: ({ params, principal, deps }) => removeTag(deps, { teamId: principal.teamId, contactId: params.id, tagId: params.tag_id }),
  }),
];
