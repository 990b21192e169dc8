import { defineRoute } from '../../http/route';
import { toPage } from '../../../services/pagination';
import { zIdParams } from '../../../core/validate';
import { formParams, submissionAnswer, submissionList, submissionListQuery, submissionPatchBody } from './schema';
import { deleteSubmission, getSubmission, listSubmissions, presentSubmission, updateSubmission } from '../../../services/forms/submissions';

const tags = ['submissions'];

export const submissionRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/v1/forms/:form_id/submissions',
    auth: { scope: 'submissions:read' },
    summary: "List a form's submissions (newest first); since/until are exclusive bounds on submitted_at",
    tags,
    params: formParams,
    query: submissionListQuery,
    response: submissionList,
    handler: ({ params, query, principal, deps }) => listSubmissions(deps.db, principal.teamId, params.form_id, toPage(query), query),
  }),
  defineRoute({
    method: 'get',
    path: '/api/v1/submissions/:id',
    auth: { scope: 'submissions:read' },
    summary: 'Read a submission',
    tags,
    params: zIdParams,
    response: submissionAnswer,
    handler: async ({ params, principal, deps }) => ({
      data: presentSubmission(await getSubmission(deps.db, principal.teamId, params.id)),
    }),
  }),
  defineRoute({
    method: 'patch',
    path: '/api/v1/submissions/:id',
    auth: { scope: 'submissions:write' },
    summary: 'Update answers: keys merge, null removes one; records submission.updated',
    tags,
    params: zIdParams,
    body: submissionPatchBody,
    response: submissionAnswer,
    handler: async ({ params, body, principal, deps }) => ({
      data: presentSubmission(await updateSubmission(deps, principal.teamId, params.id, body.fields)),
    }),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/v1/submissions/:id',
    auth: { scope: 'submissions:delete' },
    summary: 'Delete a submission; records submission.deleted',
    tags,
    params: zIdParams,
    status: 204,
    handler: ({ params, principal, deps }) => deleteSubmission(deps, principal.teamId, params.id),
  }),
];
