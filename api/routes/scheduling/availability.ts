import { defineRoute } from '../../http/route';
import { toPage } from '../../../services/pagination';
import { zIdParams } from '../../../core/validate';
import { rotateFeed } from '../../../services/scheduling/feed';
import { addOverride, deleteOverride, listSchedules, readSchedule, updateSchedule } from '../../../services/scheduling/schedules';
import {
  feedAnswer,
  feedBody,
  overrideBody,
  overrideParams,
  scheduleAnswer,
  scheduleList,
  scheduleListQuery,
  schedulePatchBody,
} from './schema';

const tags = ['availability'];

export const availabilityRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/v1/availability-schedules',
    auth: { scope: 'scheduling:read' },
    tags,
    summary: 'List availability schedules (read-only through the API)',
    query: scheduleListQuery,
    response: scheduleList,
    handler: ({ query, principal, deps }) => listSchedules(deps, { teamId: principal.teamId, page: toPage(query), userId: query.user_id }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/v1/availability-schedules/:id',
    auth: { scope: 'scheduling:read' },
    tags,
    summary: 'Read a schedule with its rules and date overrides',
    params: zIdParams,
    response: scheduleAnswer,
    handler: async ({ params, principal, deps }) => ({ data: await readSchedule(deps, { teamId: principal.teamId, id: params.id }) }),
  }),
  defineRoute({
    method: 'patch',
    path: '/api/v1/availability-schedules/:id',
    auth: { dashboardOnly: true, scope: 'scheduling:write' },
    tags,
    summary: "Dashboard: edit a schedule's name, timezone and weekly rules",
    params: zIdParams,
    body: schedulePatchBody,
    response: scheduleAnswer,
    handler: async ({ params, body, principal, deps }) => ({
      data: await updateSchedule(deps, { teamId: principal.teamId, id: params.id, changes: body }),
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/v1/availability-schedules/:id/date-overrides',
    auth: { dashboardOnly: true, scope: 'scheduling:write' },
    tags,
    status: 201,
    summary: 'Dashboard: add a date override (it replaces the whole day)',
    params: zIdParams,
    body: overrideBody,
    response: scheduleAnswer,
    conflict: 'An override for this date already exists',
    handler: async ({ params, body, principal, deps }) => ({
      data: await addOverride(deps, { teamId: principal.teamId, id: params.id, values: body }),
    }),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/v1/availability-schedules/:id/date-overrides/:override_id',
    auth: { dashboardOnly: true, scope: 'scheduling:write' },
    tags,
    status: 204,
    summary: 'Dashboard: remove a date override',
    params: overrideParams,
    handler: ({ params, principal, deps }) =>
      deleteOverride(deps, { teamId: principal.teamId, id: params.id, overrideId: params.override_id }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/v1/calendar-feeds',
    auth: { scope: 'scheduling:write' },
    tags,
    status: 201,
    summary: "Create or rotate a host's secret iCalendar feed URL (shown once)",
    body: feedBody,
    response: feedAnswer,
    handler: async ({ body, principal, deps }) => ({
      data: await rotateFeed(deps, {
        teamId: principal.teamId,
        userId: body.user_id ?? principal.userId,
        actor: { userId: principal.userId, role: principal.role },
      }),
    }),
  }),
];
