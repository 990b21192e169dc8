import { defineRoute } from '../../http/route';
import { toPage } from '../../../services/pagination';
import {
  unsubscribeAnswer,
  unsubscribeList,
  unsubscribeListQuery,
  unsubscribeParams,
  unsubscribeRemoveQuery,
  zUnsubscribeBody,
} from './schema';
import { addUnsubscribes, listUnsubscribes, removeUnsubscribe } from '../../../services/sequences/unsubscribes';

const tags = ['Sequences'];

export const unsubscribeRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/v1/sequences/unsubscribes',
    auth: { scope: 'sequences:read' },
    tags,
    summary: 'List unsubscribed contacts (one row per contact and channel)',
    query: unsubscribeListQuery,
    response: unsubscribeList,
    handler: ({ deps, principal, query }) =>
      listUnsubscribes(deps, { teamId: principal.teamId, page: toPage(query), channel: query.channel }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/v1/sequences/unsubscribes',
    auth: { scope: 'sequences:write' },
    tags,
    status: 201,
    idempotent: true,
    summary: 'Unsubscribe contacts (by id or email) from email, SMS or both; exits their running enrollments',
    body: zUnsubscribeBody,
    examples: { request: { emails: ['ada@example.com'], channel: 'email' } },
    response: unsubscribeAnswer,
    handler: async ({ deps, principal, body }) => ({ data: await addUnsubscribes(deps, { teamId: principal.teamId, values: body }) }),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/v1/sequences/unsubscribes/:contact_id',
    auth: { scope: 'sequences:delete' },
    tags,
    status: 204,
    summary: "Remove a contact's unsubscribes (one the contact made itself needs override_contact_unsubscribe=true, which is recorded)",
    params: unsubscribeParams,
    query: unsubscribeRemoveQuery,
    conflict:
      '`unsubscribed_by_contact`: the contact unsubscribed itself (SMS STOP, one-click link, spam complaint, provider unsubscribe); repeat with `override_contact_unsubscribe=true` to remove it anyway (recorded with who and when)',
    handler: ({ deps, principal, params, query }) =>
      removeUnsubscribe(deps, {
        teamId: principal.teamId,
        contactId: params.contact_id,
        override: query.override_contact_unsubscribe,
        reason: query.reason,
        actor: { kind: principal.kind, credentialId: principal.credentialId, userId: principal.userId ?? null },
      }),
  }),
];
