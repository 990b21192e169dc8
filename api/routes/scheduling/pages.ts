import { z } from 'zod';
import { defineRoute } from '../../http/route';
import { paginationQuery, toPage } from '../../../services/pagination';
import { zIdParams, zText, zUuid } from '../../../core/validate';
import {
  createEventType,
  deleteEventType,
  getEventTypeRow,
  INCREMENTS,
  listEventTypes,
  LOCATION_TYPES,
  updateEventType,
} from '../../../services/scheduling/event-types';
import { createPage, deletePage, listPages, PAGE_TYPES, readPage, updatePage } from '../../../services/scheduling/pages';
import { presentEventType } from '../../../services/scheduling/present';
import { SLUG_RE } from '../../../services/scheduling/slug';

const zSlug = z.string().min(1).max(80).regex(SLUG_RE, { error: 'must be lowercase words joined by -' });
const minutes = (max: number) => z.number().int().min(0).max(max);

const pageFields = {
  title: zText(200).min(1),
  slug: zSlug.optional(),
  description: zText(5000).optional(),
  page_type: z.enum(PAGE_TYPES).optional(),
  status: z.enum(['draft', 'published']).optional(),
  settings: z
    .strictObject({
      confirmation_message: zText(2000).optional(),
      show_avatar: z.boolean().optional(),
      redirect_url: z
        .url({ protocol: /^https?$/ })
        .max(2000)
        .optional(),
    })
    .optional(),
  remove_branding: z.boolean().optional(),
  host_user_ids: z.array(zUuid).min(1).max(50).optional(),
};
const createPageBody = z.strictObject(pageFields);
const updatePageBody = z.strictObject({ ...pageFields, title: pageFields.title.optional() });

const eventTypeFields = {
  title: zText(200).min(1),
  slug: zSlug.optional(),
  description: zText(5000).optional(),
  duration_minutes: z.number().int().min(5).max(720).optional(),
  location_type: z.enum(LOCATION_TYPES).optional(),
  location: zText(500).nullable().optional(),
  is_active: z.boolean().optional(),
  color: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, { error: 'must be a hex colour like #1a2b3c' })
    .optional(),
  position: z.number().int().min(0).max(10_000).optional(),
  buffer_time_before: minutes(720).optional(),
  buffer_time_after: minutes(720).optional(),
  min_notice_minutes: minutes(525_600).optional(),
  max_booking_days: z.number().int().min(1).max(730).optional(),
  /** Per host, in the host's timezone (a week runs Monday to Sunday); null removes the limit. */
  max_bookings_per_day: z.number().int().min(1).max(1000).nullable().optional(),
  max_bookings_per_week: z.number().int().min(1).max(5000).nullable().optional(),
  start_time_increment: z
    .union(
      INCREMENTS.map((n) => z.literal(n)),
      { error: 'must be one of 5, 10, 15, 30, 60' },
    )
    .optional(),
  requires_confirmation: z.boolean().optional(),
  guests_allowed: z.boolean().optional(),
};
const createEventTypeBody = z.strictObject(eventTypeFields);
const updateEventTypeBody = z.strictObject({ ...eventTypeFields, title: eventTypeFields.title.optional() });
const etParams = z.strictObject({ id: zUuid, event_type_id: zUuid });
const tags = ['scheduling'];

export const pageRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/v1/scheduling-pages',
    auth: { scope: 'scheduling:read' },
    tags,
    summary: 'List scheduling pages',
    query: z.strictObject({ ...paginationQuery, status: z.enum(['draft', 'published']).optional() }),
    handler: ({ query, principal, deps }) => listPages(deps.db, principal.teamId, toPage(query), query.status),
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
    handler: async ({ body, principal, deps }) => ({ data: await createPage(deps.db, principal.teamId, principal.userId, body) }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/v1/scheduling-pages/:id',
    auth: { scope: 'scheduling:read' },
    tags,
    summary: 'Read a scheduling page with its event types',
    params: zIdParams,
    handler: async ({ params, principal, deps }) => ({ data: await readPage(deps.db, principal.teamId, params.id) }),
  }),
  defineRoute({
    method: 'patch',
    path: '/api/v1/scheduling-pages/:id',
    auth: { scope: 'scheduling:write' },
    tags,
    summary: 'Update a scheduling page',
    params: zIdParams,
    body: updatePageBody,
    handler: async ({ params, body, principal, deps }) => ({ data: await updatePage(deps.db, principal.teamId, params.id, body) }),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/v1/scheduling-pages/:id',
    auth: { scope: 'scheduling:delete' },
    tags,
    status: 204,
    summary: 'Delete a scheduling page and its event types',
    params: zIdParams,
    handler: ({ params, principal, deps }) => deletePage(deps.db, principal.teamId, params.id),
  }),
  defineRoute({
    method: 'get',
    path: '/api/v1/scheduling-pages/:id/event-types',
    auth: { scope: 'scheduling:read' },
    tags,
    summary: 'List the event types of a page',
    params: zIdParams,
    query: z.strictObject(paginationQuery),
    handler: ({ params, query, principal, deps }) => listEventTypes(deps.db, principal.teamId, params.id, toPage(query)),
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
    handler: async ({ params, body, principal, deps }) => ({ data: await createEventType(deps.db, principal.teamId, params.id, body) }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/v1/scheduling-pages/:id/event-types/:event_type_id',
    auth: { scope: 'scheduling:read' },
    tags,
    summary: 'Read an event type',
    params: etParams,
    handler: async ({ params, principal, deps }) => ({
      data: presentEventType(await getEventTypeRow(deps.db, principal.teamId, params.id, params.event_type_id)),
    }),
  }),
  defineRoute({
    method: 'patch',
    path: '/api/v1/scheduling-pages/:id/event-types/:event_type_id',
    auth: { scope: 'scheduling:write' },
    tags,
    summary: 'Update an event type',
    params: etParams,
    body: updateEventTypeBody,
    handler: async ({ params, body, principal, deps }) => ({
      data: await updateEventType(deps.db, principal.teamId, params.id, params.event_type_id, body),
    }),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/v1/scheduling-pages/:id/event-types/:event_type_id',
    auth: { scope: 'scheduling:delete' },
    tags,
    status: 204,
    summary: 'Delete an event type',
    params: etParams,
    handler: ({ params, principal, deps }) => deleteEventType(deps.db, principal.teamId, params.id, params.event_type_id),
  }),
];
