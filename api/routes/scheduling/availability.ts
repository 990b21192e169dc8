import { z } from 'zod';
import { defineRoute } from '../../http/route';
import { paginationQuery, toPage } from '../../../services/pagination';
import { zIanaZone, zIdParams, zText, zUuid } from '../../../core/validate';
import { rotateFeed } from '../../../services/scheduling/feed';
import { addOverride, deleteOverride, listSchedules, readSchedule, updateSchedule } from '../../../services/scheduling/schedules';

const zTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$|^24:00$/, { error: 'must be HH:MM' });
const zDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'must be a date YYYY-MM-DD' })
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)), { error: 'must be a real date' });
const rule = z
  .strictObject({ day: z.number().int().min(0).max(6), start: zTime, end: zTime, enabled: z.boolean() })
  .refine((r) => r.start < r.end, { error: 'end must be after start', path: ['end'] });
const tags = ['availability'];

export const availabilityRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/v1/availability-schedules',
    auth: { scope: 'scheduling:read' },
    tags,
    summary: 'List availability schedules (read-only through the API)',
    query: z.strictObject({ ...paginationQuery, user_id: zUuid.optional() }),
    handler: ({ query, principal, deps }) => listSchedules(deps.db, principal.teamId, toPage(query), query.user_id),
  }),
  defineRoute({
    method: 'get',
    path: '/api/v1/availability-schedules/:id',
    auth: { scope: 'scheduling:read' },
    tags,
    summary: 'Read a schedule with its rules and date overrides',
    params: zIdParams,
    handler: async ({ params, principal, deps }) => ({ data: await readSchedule(deps.db, principal.teamId, params.id) }),
  }),
  defineRoute({
    method: 'patch',
    path: '/api/v1/availability-schedules/:id',
    auth: { dashboardOnly: true, scope: 'scheduling:write' },
    tags,
    summary: "Dashboard: edit a schedule's name, timezone and weekly rules",
    params: zIdParams,
    body: z.strictObject({ name: zText(200).min(1).optional(), timezone: zIanaZone.optional(), rules: z.array(rule).max(50).optional() }),
    handler: async ({ params, body, principal, deps }) => ({ data: await updateSchedule(deps.db, principal.teamId, params.id, body) }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/v1/availability-schedules/:id/date-overrides',
    auth: { dashboardOnly: true, scope: 'scheduling:write' },
    tags,
    status: 201,
    summary: 'Dashboard: add a date override (it replaces the whole day)',
    params: zIdParams,
    body: z
      .strictObject({
        date: zDate,
        is_unavailable: z.boolean(),
        start: zTime.optional(),
        end: zTime.optional(),
        reason: zText(500).optional(),
      })
      .refine((o) => o.is_unavailable || (o.start !== undefined && o.end !== undefined && o.start < o.end), {
        error: 'an available override needs start before end',
        path: ['start'],
      }),
    handler: async ({ params, body, principal, deps }) => ({ data: await addOverride(deps.db, principal.teamId, params.id, body) }),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/v1/availability-schedules/:id/date-overrides/:override_id',
    auth: { dashboardOnly: true, scope: 'scheduling:write' },
    tags,
    status: 204,
    summary: 'Dashboard: remove a date override',
    params: z.strictObject({ id: zUuid, override_id: zUuid }),
    handler: ({ params, principal, deps }) => deleteOverride(deps.db, principal.teamId, params.id, params.override_id),
  }),
  defineRoute({
    method: 'post',
    path: '/api/v1/calendar-feeds',
    auth: { scope: 'scheduling:write' },
    tags,
    status: 201,
    summary: "Create or rotate a host's secret iCalendar feed URL (shown once)",
    body: z.strictObject({ user_id: zUuid.optional() }),
    handler: async ({ body, principal, deps }) => ({
      data: await rotateFeed(deps.db, deps.config.baseUrl, principal.teamId, body.user_id ?? principal.userId),
    }),
  }),
];
