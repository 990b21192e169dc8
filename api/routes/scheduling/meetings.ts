import { z } from 'zod';
import { MEETING_STATUSES } from '../../../domain/meeting-state';
import { defineRoute } from '../../http/route';
import { paginationQuery, toPage } from '../../../services/pagination';
import { zIdParams, zTimestamp, zText, zUuid } from '../../../core/validate';
import { deleteMeeting, listMeetings, readMeeting, updateMeeting } from '../../../services/scheduling/meetings';

/** An ISO date (YYYY-MM-DD, midnight UTC) or an ISO 8601 timestamp. */
const zDateOrTime = z
  .string()
  .refine((s) => /^\d{4}-\d{2}-\d{2}$/.test(s) || z.iso.datetime({ offset: true }).safeParse(s).success, {
    error: 'must be an ISO 8601 date or timestamp',
  })
  .transform((s) => new Date(/^\d{4}-\d{2}-\d{2}$/.test(s) ? `${s}T00:00:00Z` : s))
  .refine((d) => !Number.isNaN(d.getTime()), { error: 'must be a valid date' });

const tags = ['meetings'];

export const meetingRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/v1/meetings',
    auth: { scope: 'meetings:read' },
    tags,
    summary: 'List meetings (ordered by start time), including AI notes',
    query: z.strictObject({
      ...paginationQuery,
      status: z.enum(MEETING_STATUSES).optional(),
      since: zDateOrTime.optional(),
      until: zDateOrTime.optional(),
      scheduling_page_id: zUuid.optional(),
    }),
    handler: ({ query, principal, deps }) => listMeetings(deps.db, principal.teamId, toPage(query), query),
  }),
  defineRoute({
    method: 'get',
    path: '/api/v1/meetings/:id',
    auth: { scope: 'meetings:read' },
    tags,
    summary: 'Read a meeting with ai_notes, recording and field_values',
    params: zIdParams,
    handler: async ({ params, principal, deps }) => ({ data: await readMeeting(deps.db, principal.teamId, params.id) }),
  }),
  defineRoute({
    method: 'patch',
    path: '/api/v1/meetings/:id',
    auth: { scope: 'meetings:write' },
    tags,
    summary:
      "Change a meeting's status, notes or cancellation reason, or reschedule it with start_time (the meeting becomes `rescheduled`, linked to the new one by rescheduled_to_id)",
    params: zIdParams,
    body: z.strictObject({
      status: z.enum(MEETING_STATUSES).optional(),
      notes: zText(10_000).nullable().optional(),
      cancellation_reason: zText(2000).optional(),
      /** A new start: the meeting keeps its length; the same slot rules as a booking apply (409 taken, 400 not offered). */
      start_time: zTimestamp.optional(),
    }),
    handler: async ({ params, body, principal, deps }) => ({ data: await updateMeeting(deps, principal.teamId, params.id, body) }),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/v1/meetings/:id',
    auth: { scope: 'meetings:delete' },
    tags,
    status: 204,
    summary: 'Delete a meeting; its video meeting and calendar event are cleaned up',
    params: zIdParams,
    handler: ({ params, principal, deps }) => deleteMeeting(deps, principal.teamId, params.id),
  }),
];
