import { z } from 'zod';
import { defineRoute } from '../http/route';
import { paginationQuery, toPage } from '../../services/pagination';
import { zIanaZone, zUuid } from '../../core/validate';
import { addMember, getTeam, listMembers, updateTeam } from '../../services/team';
import { changeRole, getMember, removeMember } from '../../services/accounts/members';
import { ROLES } from '../../core/scopes';

const memberParams = z.strictObject({ user_id: zUuid });

export const teamRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/v1/team',
    auth: { scope: 'team:read' },
    summary: "The caller's team",
    tags: ['team'],
    handler: async ({ principal, deps }) => ({ data: await getTeam(deps.db, principal.teamId) }),
  }),
  defineRoute({
    method: 'patch',
    path: '/api/v1/team',
    auth: { scope: 'team:write' },
    summary: "Update the team's name or settings",
    tags: ['team'],
    body: z.strictObject({
      name: z.string().trim().min(1).max(200).optional(),
      settings: z.record(z.string().max(100), z.unknown()).optional(),
    }),
    handler: async ({ body, principal, deps }) => ({ data: await updateTeam(deps.db, principal.teamId, body) }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/v1/team/members',
    auth: { scope: 'team:members' },
    summary: 'List team members',
    tags: ['team'],
    query: z.object(paginationQuery),
    handler: async ({ query, principal, deps }) => listMembers(deps.db, principal.teamId, toPage(query)),
  }),
  defineRoute({
    method: 'post',
    path: '/api/v1/team/members',
    auth: { scope: 'team:members' },
    summary: 'Add a team member',
    tags: ['team'],
    body: z.strictObject({
      email: z.email().max(320),
      name: z.string().trim().min(1).max(200).optional(),
      role: z.enum(['admin', 'member']).default('member'),
      password: z.string().min(8).max(1024).optional(),
      timezone: zIanaZone.optional(),
    }),
    status: 201,
    idempotent: true,
    handler: async ({ body, principal, deps }) => ({ data: await addMember(deps.db, principal.teamId, body) }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/v1/team/members/:user_id',
    auth: { scope: 'team:members' },
    summary: 'One team member',
    tags: ['team'],
    params: memberParams,
    handler: async ({ params, principal, deps }) => ({ data: await getMember(deps.db, principal.teamId, params.user_id) }),
  }),
  defineRoute({
    method: 'patch',
    path: '/api/v1/team/members/:user_id',
    auth: { scope: 'team:members' },
    summary:
      "Change a member's role (owner, admin, member); only an owner grants or changes the owner role; the last owner cannot be demoted (409)",
    tags: ['team'],
    params: memberParams,
    body: z.strictObject({ role: z.enum(ROLES) }),
    handler: async ({ params, body, principal, deps }) => ({ data: await changeRole(deps.db, principal, params.user_id, body.role) }),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/v1/team/members/:user_id',
    auth: { scope: 'team:members' },
    summary:
      'Remove a team member: signs out their sessions, revokes the API keys they created; 204, or 200 with what they still host (upcoming meetings, scheduling pages) when sent `Prefer: return=representation`',
    tags: ['team'],
    params: memberParams,
    status: 204,
    raw: true,
    handler: async ({ ctx, params, principal, deps }) => {
      const report = await removeMember(deps.db, principal, params.user_id);
      if (/\breturn=representation\b/i.test(ctx.get('prefer'))) {
        ctx.status = 200;
        ctx.set('Preference-Applied', 'return=representation');
        ctx.body = { data: report };
      } else {
        ctx.status = 204;
      }
    },
  }),
];
