import { defineRoute } from '../../http/route';
import { toPage } from '../../../services/pagination';
import { tagAnswer, tagBody, tagList, tagListQuery, tagParams } from './schema';
import { createTag, deleteTag, listTags } from '../../../services/contacts/tags';

const tags = ['contact tags'];

export const tagRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/v1/contact-tags',
    auth: { scope: 'contacts:read' },
    summary: "List the team's contact tags",
    tags,
    query: tagListQuery,
    response: tagList,
    handler: ({ query, principal, deps }) => listTags(deps, { teamId: principal.teamId, page: toPage(query) }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/v1/contact-tags',
    auth: { scope: 'contacts:write' },
    summary: 'Create a tag (names are unique per team, case-insensitively)',
    tags,
    body: tagBody,
    response: tagAnswer,
    conflict: 'The team already has a tag with this name',
    status: 201,
    idempotent: true,
    handler: async ({ body, principal, deps }) => ({ data: await createTag(deps, { teamId: principal.teamId, name: body.name.trim() }) }),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/v1/contact-tags/:tag_id',
    auth: { scope: 'contacts:write' },
    summary: 'Delete a tag; it is removed from every contact',
    tags,
    params: tagParams,
    status: 204,
    handler: ({ params, principal, deps }) => deleteTag(deps, { teamId: principal.teamId, id: params.tag_id }),
  }),
];
