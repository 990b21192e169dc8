import { z } from 'zod';
import { defineRoute } from '../http/route';
import { paginationQuery, toPage } from '../../services/pagination';
import { zUuid } from '../../core/validate';
import { ROLES } from '../../core/scopes';
import { createInvitation, getInvitation, listInvitations, resendInvitation, revokeInvitation } from '../../services/accounts/invitations';

const tags = ['team'];
const params = z.strictObject({ id: zUuid });

export const invitationRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/v1/team/invitations',
    auth: { scope: 'team:members' },
    summary: 'List invitations (status pending, accepted, revoked or expired)',
    tags,
    query: z.object({ ...paginationQuery, status: z.enum(['pending', 'accepted', 'revoked', 'expired']).optional() }),
    handler: ({ query, principal, deps }) => listInvitations(deps, principal.teamId, toPage(query), query.status),
  }),
  defineRoute({
    method: 'post',
    path: '/api/v1/team/invitations',
    auth: { scope: 'team:members' },
    summary:
      'Invite an address with a role: an email with a link valid 7 days, one reminder after 3 days; 409 for a member or an open invitation',
    tags,
    body: z.strictObject({ email: z.email().max(320), role: z.enum(ROLES).default('member') }),
    status: 201,
    idempotent: true,
    handler: async ({ body, principal, deps }) => ({ data: await createInvitation(deps, principal, body) }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/v1/team/invitations/:id',
    auth: { scope: 'team:members' },
    summary: 'One invitation',
    tags,
    params,
    handler: async ({ params, principal, deps }) => ({ data: await getInvitation(deps, principal.teamId, params.id) }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/v1/team/invitations/:id/resend',
    auth: { scope: 'team:members' },
    summary: 'Send a pending or expired invitation again: a new link, valid 7 more days',
    tags,
    params,
    handler: async ({ params, principal, deps }) => ({ data: await resendInvitation(deps, principal, params.id) }),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/v1/team/invitations/:id',
    auth: { scope: 'team:members' },
    summary: 'Revoke an invitation: its links stop working',
    tags,
    params,
    status: 204,
    handler: ({ params, principal, deps }) => revokeInvitation(deps, principal, params.id),
  }),
];
