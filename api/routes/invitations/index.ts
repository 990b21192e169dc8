import { defineRoute } from '../../http/route';
import { toPage } from '../../../services/pagination';
import {
  createInvitation,
  getInvitation,
  listInvitations,
  resendInvitation,
  revokeInvitation,
} from '../../../services/accounts/invitations';
import { invitationAnswer, invitationBody, invitationList, invitationListQuery, invitationParams } from '../team/schema';

const tags = ['team'];

export const invitationRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/v1/team/invitations',
    auth: { scope: 'team:members' },
    summary: 'List invitations (status pending, accepted, revoked or expired)',
    tags,
    query: invitationListQuery,
    response: invitationList,
    handler: ({ query, principal, deps }) => listInvitations(deps, { teamId: principal.teamId, page: toPage(query), status: query.status }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/v1/team/invitations',
    auth: { scope: 'team:members' },
    summary:
      'Invite an address with a role: an email with a link valid 7 days, one reminder after 3 days; 409 for a member or an open invitation',
    tags,
    body: invitationBody,
    status: 201,
    idempotent: true,
    response: invitationAnswer,
    conflict: 'The address is already a member, or has an open invitation',
    handler: async ({ body, principal, deps }) => ({ data: await createInvitation(deps, { principal, values: body }) }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/v1/team/invitations/:id',
    auth: { scope: 'team:members' },
    summary: 'One invitation',
    tags,
    params: invitationParams,
    response: invitationAnswer,
    handler: async ({ params, principal, deps }) => ({ data: await getInvitation(deps, { teamId: principal.teamId, id: params.id }) }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/v1/team/invitations/:id/resend',
    auth: { scope: 'team:members' },
    summary: 'Send a pending or expired invitation again: a new link, valid 7 more days',
    tags,
    params: invitationParams,
    response: invitationAnswer,
    conflict: '`invalid_transition`: the invitation was accepted or revoked',
    handler: async ({ params, principal, deps }) => ({ data: await resendInvitation(deps, { principal, id: params.id }) }),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/v1/team/invitations/:id',
    auth: { scope: 'team:members' },
    summary: 'Revoke an invitation: its links stop working',
    tags,
    params: invitationParams,
    status: 204,
    handler: ({ params, principal, deps }) => revokeInvitation(deps, { principal, id: params.id }),
  }),
];
