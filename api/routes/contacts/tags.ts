import { z } from 'zod';
import { defineRoute } from '../../http/route';
import { paginationQuery, toPage } from '../../../services/pagination';
import { zUuid } from '../../../core/validate';
import { text } from '../../../services/forms/schemas';
import { createTag, deleteTag, listTags } from '../../../services/contacts/tags';

const tags = ['contact tags'];

export const tagRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/v1/contact-tags',
    auth: { scope: 'contacts:read' },
    summary: "List the team's contact tags",
    tags,
    query: z.object({ ...paginationQuery }),
    handler: ({ query, principal, deps }) => listTags(deps.db, principal.teamId, toPage(query)),
  }),
  defineRoute({
    method: 'post',
    path: '/api/v1/contact-tags',
    auth: { scope: 'contacts:write' },
    summary: 'Create a tag (names are unique per team, case-insensitively)',
    tags,
    body: z.strictObject({ name: text(100, 1).refine((s) => s.trim().length > 0, { error: 'must not be blank' }) }),
    status: 201,
    idempotent: true,
    handler: async ({ body, principal, deps }) => ({ data: await createTag(deps.db, principal.teamId, body.name.trim()) }),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/v1/contact-tags/:tag_id',
    auth: { scope: 'contacts:write' },
    summary: 'Delete a tag; it is removed from every contact',
    tags,
    params: z.strictObject({ tag_id: zUuid }),
    status: 204,
    handler: ({ params, principal, deps }) => deleteTag(deps.db, principal.teamId, params.tag_id),
  }),
];
