import { z } from 'zod';
import { defineRoute } from '../../http/route';
import { paginationQuery, toPage } from '../../../services/pagination';
import { zIdParams, zTimestamp, zUuid } from '../../../core/validate';
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
    params: z.strictObject({ form_id: zUuid }),
    query: z.object({
      ...paginationQuery,
      since: zTimestamp.optional(),
      until: zTimestamp.optional(),
      status: z.enum(['completed', 'partial']).optional(),
    }),
    handler: ({ params, query, principal, deps }) => listSubmissions(deps.db, principal.teamId, params.form_id, toPage(query), query),
  }),
  defineRoute({
    method: 'get',
    path: '/api/v1/forms/:form_id/submissions/export',
    auth: { scope: 'submissions:read' },
    summary: 'Export submissions as CSV (RFC 4180, optional BOM) or NDJSON, streamed; same filters as the list',
    tags,
    params: z.strictObject({ form_id: zUuid }),
    query: z.object({
      format: z.enum(['csv', 'ndjson']).default('csv'),
      bom: z.enum(['true', 'false', '1', '0']).optional(),
      since: zTimestamp.optional(),
      until: zTimestamp.optional(),
      status: z.enum(['completed', 'partial']).optional(),
    }),
    raw: true,
    handler: async ({ params, query, principal, deps, ctx }) => {
      const bom = query.bom === 'true' || query.bom === '1';
      const out = await exportSubmissions(deps.db, principal.teamId, params.form_id, { ...query, bom });
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
    body: z.strictObject({ fields: z.record(z.string().max(64), z.unknown()) }),
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
