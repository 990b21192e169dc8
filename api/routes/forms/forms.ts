import { defineRoute } from '../../http/route';
import { toPage } from '../../../services/pagination';
import { zIdParams } from '../../../core/validate';
import { formAnalytics } from '../../../services/forms/analytics';
import { forgetCachedForm } from '../../../services/forms/form-cache';
import { createForm, deleteForm, getForm, listForms, presentForm, updateForm } from '../../../services/forms/forms';
import { analyticsAnswer, analyticsQuery, createFormBody, formAnswer, formList, formListQuery, updateFormBody } from './schema';

const tags = ['forms'];

export const formRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/v1/forms',
    auth: { scope: 'forms:read' },
    summary: 'List forms (newest first)',
    tags,
    query: formListQuery,
    response: formList,
    handler: ({ query, principal, deps }) => listForms(deps, { teamId: principal.teamId, page: toPage(query), status: query.status }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/v1/forms',
    auth: { scope: 'forms:write' },
    summary: 'Create a form (`name` is an alias of `title`)',
    tags,
    body: createFormBody,
    examples: {
      request: {
        title: 'Contact us',
        slug: 'contact-us',
        status: 'published',
        fields: [
          { type: 'text', label: 'Your name', name: 'name', required: true },
          { type: 'email', label: 'Email', name: 'email', required: true },
        ],
      },
    },
    response: formAnswer,
    conflict: 'The slug is taken (by another form of the team, or by a published form)',
    status: 201,
    idempotent: true,
    handler: async ({ body, principal, deps }) => ({
      data: presentForm(await createForm(deps, { teamId: principal.teamId, values: body })),
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/v1/forms/:id',
    auth: { scope: 'forms:read' },
    summary: 'Read a form with its fields and settings',
    tags,
    params: zIdParams,
    response: formAnswer,
    handler: async ({ params, principal, deps }) => ({
      data: presentForm(await getForm(deps, { teamId: principal.teamId, id: params.id })),
    }),
  }),
  defineRoute({
    method: 'patch',
    path: '/api/v1/forms/:id',
    auth: { scope: 'forms:write' },
    summary: 'Update a form; `fields` replaces the list, `settings` merges by key',
    tags,
    params: zIdParams,
    body: updateFormBody,
    response: formAnswer,
    conflict: 'The slug is taken (by another form of the team, or by a published form)',
    handler: async ({ params, body, principal, deps }) => {
      const form = await updateForm(deps, { teamId: principal.teamId, id: params.id, changes: body });
      forgetCachedForm(deps, { formId: form.id });
      return { data: presentForm(form) };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/api/v1/forms/:id',
    auth: { scope: 'forms:delete' },
    summary: 'Delete a form with its submissions',
    tags,
    params: zIdParams,
    status: 204,
    handler: async ({ params, principal, deps }) => {
      await deleteForm(deps, { teamId: principal.teamId, id: params.id });
      forgetCachedForm(deps, { formId: params.id });
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/v1/forms/:id/analytics',
    auth: { scope: 'analytics:read' },
    summary: 'Views, starts, partial and completed counts, rates, by utm_source and device_type',
    tags,
    params: zIdParams,
    query: analyticsQuery,
    response: analyticsAnswer,
    handler: async ({ params, query, principal, deps }) => ({
      data: await formAnalytics(deps, { teamId: principal.teamId, formId: params.id, since: query.since, until: query.until }),
    }),
  }),
];
