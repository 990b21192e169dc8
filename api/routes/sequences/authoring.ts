import { defineRoute } from '../../http/route';
import { toPage } from '../../../services/pagination';
import { zIdParams } from '../../../core/validate';
import { sequenceAnalytics } from '../../../services/sequences/analytics';
import {
  archiveSequence,
  createSequence,
  getSequence,
  listSequences,
  listSteps,
  updateSequence,
} from '../../../services/sequences/authoring';
import { analyticsAnswer, sequenceAnswer, sequenceList, sequenceListQuery, stepList, zSequenceCreate, zSequencePatch } from './schema';

const tags = ['Sequences'];

export const authoringRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/v1/sequences',
    auth: { scope: 'sequences:read' },
    tags,
    summary: 'List sequences',
    query: sequenceListQuery,
    response: sequenceList,
    handler: ({ deps, principal, query }) => listSequences(deps, { teamId: principal.teamId, page: toPage(query), status: query.status }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/v1/sequences',
    auth: { dashboardOnly: true, scope: 'sequences:write' },
    tags,
    status: 201,
    idempotent: true,
    summary: 'Create a sequence with its steps (dashboard only)',
    body: zSequenceCreate,
    response: sequenceAnswer,
    handler: async ({ deps, principal, body }) => ({ data: await createSequence(deps, { teamId: principal.teamId, values: body }) }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/v1/sequences/:id',
    auth: { scope: 'sequences:read' },
    tags,
    summary: 'A sequence with its steps',
    params: zIdParams,
    response: sequenceAnswer,
    handler: async ({ deps, principal, params }) => ({ data: await getSequence(deps, { teamId: principal.teamId, id: params.id }) }),
  }),
  defineRoute({
    method: 'patch',
    path: '/api/v1/sequences/:id',
    auth: { dashboardOnly: true, scope: 'sequences:write' },
    tags,
    summary: 'Edit, activate, pause, resume or archive a sequence; `steps` replaces the step list (dashboard only)',
    params: zIdParams,
    body: zSequencePatch,
    response: sequenceAnswer,
    conflict: '`invalid_transition`: an archived sequence cannot change, and not every status can follow every other',
    handler: async ({ deps, principal, params, body }) => ({
      data: await updateSequence(deps, { teamId: principal.teamId, id: params.id, changes: body }),
    }),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/v1/sequences/:id',
    auth: { dashboardOnly: true, scope: 'sequences:delete' },
    tags,
    status: 204,
    summary: 'Archive a sequence: its running enrollments exit (dashboard only)',
    params: zIdParams,
    handler: ({ deps, principal, params }) => archiveSequence(deps, { teamId: principal.teamId, id: params.id }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/v1/sequences/:id/steps',
    auth: { scope: 'sequences:read' },
    tags,
    summary: 'Steps of a sequence',
    params: zIdParams,
    response: stepList,
    handler: async ({ deps, principal, params }) => {
      const data = await listSteps(deps, { teamId: principal.teamId, id: params.id });
      return { data, meta: { total: data.length, page: 1, per_page: Math.max(data.length, 1), total_pages: 1 } };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/v1/sequences/:id/analytics',
    auth: { scope: 'sequences:read' },
    tags,
    summary: 'Enrollment counts and per-step delivered, opened, clicked, bounced and failed counts',
    params: zIdParams,
    response: analyticsAnswer,
    handler: async ({ deps, principal, params }) => ({
      data: await sequenceAnalytics(deps, { teamId: principal.teamId, id: params.id }),
    }),
  }),
];
