import { defineRoute } from '../../http/route';
import { zIdParams } from '../../../core/validate';
import { toPage } from '../../../services/pagination';
import {
  createConnection,
  deleteConnection,
  getConnection,
  listConnections,
  requestSync,
  updateConnection,
} from '../../../services/calendars/connections';
import { connectionAnswer, connectionList, connectionListQuery, createConnectionBody, patchConnectionBody } from './schema';

const tags = ['calendar connections'];

/**
 * Host calendars (docs/calendars.md): CalDAV accounts and secret iCalendar feeds whose busy time
 * feeds availability. Reading is open to any credential with scheduling:read (status only, never
 * credentials); connecting, changing, syncing and deleting are for dashboard sessions: a user
 * manages their own connections, an owner those of every member.
 */
export const calendarConnectionRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/v1/calendar-connections',
    auth: { scope: 'scheduling:read' },
    tags,
    summary: 'List calendar connections with their status (an API key and an owner see the whole team, a member their own)',
    query: connectionListQuery,
    response: connectionList,
    handler: ({ query, principal, deps }) => listConnections(deps, { principal, page: toPage(query), filters: query }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/v1/calendar-connections',
    auth: { dashboardOnly: true, scope: 'scheduling:write' },
    tags,
    status: 201,
    idempotent: true,
    summary:
      'Dashboard: connect a CalDAV account (server URL, username, app password) or a secret iCalendar feed; the first sync starts at once',
    body: createConnectionBody,
    response: connectionAnswer,
    handler: async ({ body, principal, deps }) => ({ data: await createConnection(deps, { principal, values: body }) }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/v1/calendar-connections/:id',
    auth: { scope: 'scheduling:read' },
    tags,
    summary: 'Read a calendar connection: status, status message, last sync, counts and calendars',
    params: zIdParams,
    response: connectionAnswer,
    handler: async ({ params, principal, deps }) => ({ data: await getConnection(deps, { principal, id: params.id }) }),
  }),
  defineRoute({
    method: 'patch',
    path: '/api/v1/calendar-connections/:id',
    auth: { dashboardOnly: true, scope: 'scheduling:write' },
    tags,
    summary: 'Dashboard: rename, choose which calendars are checked for conflicts and which one receives bookings',
    params: zIdParams,
    body: patchConnectionBody,
    response: connectionAnswer,
    handler: async ({ params, body, principal, deps }) => ({
      data: await updateConnection(deps, { principal, id: params.id, changes: body }),
    }),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/v1/calendar-connections/:id',
    auth: { dashboardOnly: true, scope: 'scheduling:delete' },
    tags,
    status: 204,
    summary: 'Dashboard: disconnect; its cached busy time is removed and its sync workflow stops',
    params: zIdParams,
    handler: ({ params, principal, deps }) => deleteConnection(deps, { principal, id: params.id }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/v1/calendar-connections/:id/sync',
    auth: { dashboardOnly: true, scope: 'scheduling:write' },
    tags,
    status: 202,
    summary: 'Dashboard: sync now (the sync workflow is signalled; the connection shows syncing until it has run)',
    params: zIdParams,
    response: connectionAnswer,
    handler: async ({ params, principal, deps }) => ({ data: await requestSync(deps, { principal, id: params.id }) }),
  }),
];
