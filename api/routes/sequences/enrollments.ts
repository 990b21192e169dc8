import { defineRoute } from '../../http/route';
import { toPage } from '../../../services/pagination';
import { zIdParams } from '../../../core/validate';
import { enroll, listEnrollments, unenroll } from '../../../services/sequences/enroll';
import { enrollAnswer, enrollmentList, enrollmentListQuery, enrollmentParams, zEnrollBody } from './schema';

const tags = ['Sequences'];

export const enrollmentRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/v1/sequences/:id/enrollments',
    auth: { scope: 'sequences:read' },
    tags,
    summary: 'Enrollments of a sequence',
    params: zIdParams,
    query: enrollmentListQuery,
    response: enrollmentList,
    handler: ({ deps, principal, params, query }) =>
      listEnrollments(deps, {
        teamId: principal.teamId,
        sequenceId: params.id,
        page: toPage(query),
        status: query.status,
        contactId: query.contact_id,
      }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/v1/sequences/:id/enrollments',
    auth: { scope: 'sequences:write' },
    tags,
    status: 201,
    idempotent: true,
    summary: 'Enroll a contact, up to 1,000 contacts, or a new contact by email; each is active or skipped with its reason',
    params: zIdParams,
    body: zEnrollBody,
    examples: { request: { email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' } },
    response: enrollAnswer,
    conflict: '`invalid_transition`: the sequence is archived',
    handler: async ({ deps, principal, params, body }) => ({
      data: await enroll(deps, { teamId: principal.teamId, sequenceId: params.id, values: body }),
    }),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/v1/sequences/:id/enrollments/:enrollment_id',
    auth: { scope: 'sequences:delete' },
    tags,
    status: 204,
    summary: 'Unenroll: the enrollment exits with reason unenrolled',
    params: enrollmentParams,
    handler: ({ deps, principal, params }) =>
      unenroll(deps, { teamId: principal.teamId, sequenceId: params.id, enrollmentId: params.enrollment_id }),
  }),
];
