import { defineRoute } from '../../http/route';
import { toPage } from '../../../services/pagination';
import { addMember, getTeam, listMembers, updateTeam } from '../../../services/team';
import { changeRole, getMember, removeMember } from '../../../services/accounts/members';
import {
  memberAnswer,
  memberBody,
  memberList,
  memberListQuery,
  memberParams,
  removalReport,
  roleBody,
  teamAnswer,
  teamPatchBody,
} from './schema';

export const teamRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/v1/team',
    auth: { scope: 'team:read' },
    summary: "The caller's team",
    tags: ['team'],
    response: teamAnswer,
    handler: async ({ principal, deps }) => ({ data: await getTeam(deps, { teamId: principal.teamId }) }),
  }),
  defineRoute({
    method: 'patch',
    path: '/api/v1/team',
    auth: { scope: 'team:write' },
    summary: "Update the team's name or settings",
    tags: ['team'],
    body: teamPatchBody,
    response: teamAnswer,
    handler: async ({ body, principal, deps }) => ({ data: await updateTeam(deps, { teamId: principal.teamId, changes: body }) }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/v1/team/members',
    auth: { scope: 'team:members' },
    summary: 'List team members',
    tags: ['team'],
    query: memberListQuery,
    response: memberList,
    handler: async ({ query, principal, deps }) => listMembers(deps, { teamId: principal.teamId, page: toPage(query) }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/v1/team/members',
    auth: { scope: 'team:members' },
    summary: 'Add a team member',
    tags: ['team'],
    body: memberBody,
    status: 201,
    idempotent: true,
    response: memberAnswer,
    conflict: 'A user with this email already exists',
    handler: async ({ body, principal, deps }) => ({ data: await addMember(deps, { teamId: principal.teamId, values: body }) }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/v1/team/members/:user_id',
    auth: { scope: 'team:members' },
    summary: 'One team member',
    tags: ['team'],
    params: memberParams,
    response: memberAnswer,
    handler: async ({ params, principal, deps }) => ({ data: await getMember(deps, { teamId: principal.teamId, userId: params.user_id }) }),
  }),
  defineRoute({
    method: 'patch',
    path: '/api/v1/team/members/:user_id',
    auth: { scope: 'team:members' },
    summary:
      "Change a member's role (owner, admin, member); only an owner grants or changes the owner role; the last owner cannot be demoted (409)",
    tags: ['team'],
    params: memberParams,
    body: roleBody,
    response: memberAnswer,
    conflict: 'The last owner of a team cannot be demoted',
    handler: async ({ params, body, principal, deps }) => ({
      data: await changeRole(deps, { principal, userId: params.user_id, role: body.role }),
    }),
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
    response: removalReport,
    alsoFor: [200],
    conflict: 'You cannot remove yourself, nor the last owner',
    handler: async ({ ctx, params, principal, deps }) => {
      const report = await removeMember(deps, { principal, userId: params.user_id });
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
