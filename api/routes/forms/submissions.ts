import { defineRoute } from '../../http/route';
import { toPage } from '../../../services/pagination';
import { zIdParams } from '../../../core/validate';
import { exportQuery, formParams, submissionAnswer, submissionList, submissionListQuery, submissionPatchBody } from './schema';
import { exportSubmissions } from '../../../services/forms/export';
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
    handler: ({ params, query, principal, deps }) =>
      listSubmissions(deps, { teamId: principal.teamId, formId: params.form_id, page: toPage(query), filters: query }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/v1/forms/:form_id/submissions/export',
    auth: { scope: 'submissions:read' },
    summary: 'Export submissions as CSV (RFC 4180, optional BOM) or NDJSON, streamed; same filters as the list',
    tags,
    params: formParams,
    query: exportQuery,
    response: { mediaType: 'text/csv', description: 'RFC 4180 CSV (format=csv, the default), streamed' },
    alternate: { mediaType: 'application/x-ndjson', description: 'One JSON object per line (format=ndjson), streamed' },
    raw: true,
    handler: async ({ params, query, principal, deps, ctx }) => {
      const bom = query.bom === 'true' || query.bom === '1';
      const out = await exportSubmissions(deps, { teamId: principal.teamId, formId: params.form_id, options: { ...query, bom } });
      ctx.status = 200;
      ctx.type = out.contentType;
      ctx.set('Content-Disposition', `attachment; filename="${out.filename}"`);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = out.stream;
    },
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
      data: presentSubmission(await getSubmission(deps, { teamId: principal.teamId, id: params.id })),
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
      data: presentSubmission(await updateSubmission(deps, { teamId: principal.teamId, id: params.id, fields: body.fields })),
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
    handler: ({ params, principal, deps }) => deleteSubmission(deps, { teamId: principal.teamId, id: params.id }),
  }),
];
