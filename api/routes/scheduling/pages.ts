import { defineRoute } from '../../http/route';
import { toPage } from '../../../services/pagination';
import { zIdParams } from '../../../core/validate';
import {
  createEventType,
  deleteEventType,
  getEventTypeRow,
  listEventTypes,
  updateEventType,
} from '../../../services/scheduling/event-types';
import { createPage, deletePage, listPages, readPage, updatePage } from '../../../services/scheduling/pages';
import { presentEventType } from '../../../services/scheduling/present';
import {
  createEventTypeBody,
  createPageBody,
  eventTypeAnswer,
  eventTypeList,
  eventTypeParams,
  pageAnswer,
  pageList,
  pageListQuery,
  plainListQuery,
  updateEventTypeBody,
  updatePageBody,
} from './schema';

const tags = ['scheduling'];

export const pageRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/v1/scheduling-pages',
    auth: { scope: 'scheduling:read' },
    tags,
    summary: 'List scheduling pages',
    query: pageListQuery,
    response: pageList,
    handler: ({ query, principal, deps }) => listPages(deps, { teamId: principal.teamId, page: toPage(query), status: query.status }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/v1/scheduling-pages',
    auth: { scope: 'scheduling:write' },
    tags,
    status: 201,
    idempotent: true,
    summary: 'Create a scheduling page (hosts default to the acting user)',
    body: createPageBody,
    response: pageAnswer,
    conflict: 'The slug is already taken',
    handler: async ({ body, principal, deps }) => ({
      data: await createPage(deps, { teamId: principal.teamId, userId: principal.userId, values: body }),
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/v1/scheduling-pages/:id',
    auth: { scope: 'scheduling:read' },
    tags,
    summary: 'Read a scheduling page with its event types',
    params: zIdParams,
    response: pageAnswer,
    handler: async ({ params, principal, deps }) => ({ data: await readPage(deps, { teamId: principal.teamId, id: params.id }) }),
  }),
  defineRoute({
    method: 'patch',
    path: '/api/v1/scheduling-pages/:id',
    auth: { scope: 'scheduling:write' },
    tags,
    summary: 'Update a scheduling page',
    params: zIdParams,
    body: updatePageBody,
    response: pageAnswer,
    conflict: 'The slug is already taken',
    handler: async ({ params, body, principal, deps }) => ({
      data: await updatePage(deps, { teamId: principal.teamId, id: params.id, changes: body }),
    }),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/v1/scheduling-pages/:id',
    auth: { scope: 'scheduling:delete' },
    tags,
    status: 204,
    summary: 'Delete a scheduling page and its event types',
    params: zIdParams,
    handler: ({ params, principal, deps }) => deletePage(deps, { teamId: principal.teamId, id: params.id }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/v1/scheduling-pages/:id/event-types',
    auth: { scope: 'scheduling:read' },
    tags,
    summary: 'List the event types of a page',
    params: zIdParams,
    query: plainListQuery,
    response: eventTypeList,
    handler: ({ params, query, principal, deps }) =>
      listEventTypes(deps, { teamId: principal.teamId, pageId: params.id, page: toPage(query) }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/v1/scheduling-pages/:id/event-types',
    auth: { scope: 'scheduling:write' },
    tags,
    status: 201,
    idempotent: true,
    summary: 'Create an event type on a page',
    params: zIdParams,
    body: createEventTypeBody,
    response: eventTypeAnswer,
    conflict: 'The slug is already taken on this page',
    handler: async ({ params, body, principal, deps }) => ({
      data: await createEventType(deps, { teamId: principal.teamId, pageId: params.id, values: body }),
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/v1/scheduling-pages/:id/event-types/:event_type_id',
    auth: { scope: 'scheduling:read' },
    tags,
    summary: 'Read an event type',
    params: eventTypeParams,
    response: eventTypeAnswer,
    handler: async ({ params, principal, deps }) => ({
      data: presentEventType(
        await getEventTypeRow(deps, { teamId: principal.teamId, pageId: params.id, id: params.event_type_id }),
        deps.video,
      ),
    }),
  }),
  defineRoute({
    method: 'patch',
    path: '/api/v1/scheduling-pages/:id/event-types/:event_type_id',
    auth: { scope: 'scheduling:write' },
    tags,
    summary: 'Update an event type',
    params: eventTypeParams,
    body: updateEventTypeBody,
    response: eventTypeAnswer,
    conflict: 'The slug is already taken on this page',
    handler: async ({ params, body, principal, deps }) => ({
      data: await updateEventType(deps, { teamId: principal.teamId, pageId: params.id, id: params.event_type_id, changes: body }),
    }),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/v1/scheduling-pages/:id/event-types/:event_type_id',
    auth: { scope: 'scheduling:delete' },
    tags,
    status: 204,
    summary: 'Delete an event type',
    params: eventTypeParams,
    handler: ({ params, principal, deps }) =>
      deleteEventType(deps, { teamId: principal.teamId, pageId: params.id, id: params.event_type_id }),
  }),
];
