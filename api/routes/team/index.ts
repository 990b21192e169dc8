import { defineRoute } from '../../http/route';
import { toPage } from '../../../services/pagination';
import { addMember, getTeam, listMembers, removeMember, updateTeam } from '../../../services/team';
import { memberAnswer, memberBody, memberList, memberListQuery, memberParams, teamAnswer, teamPatchBody } from './schema';

export const teamRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/v1/team',
    auth: { scope: 'team:read' },
    summary: "The caller's team",
    tags: ['team'],
    response: teamAnswer,
    handler: async ({ principal, deps }) => ({ data: await getTeam(deps.db, principal.teamId) }),
  }),
  defineRoute({
    method: 'patch',
    path: '/api/v1/team',
    auth: { scope: 'team:write' },
    summary: "Update the team's name or settings",
    tags: ['team'],
    body: teamPatchBody,
    response: teamAnswer,
    handler: async ({ body, principal, deps }) => ({ data: await updateTeam(deps.db, principal.teamId, body) }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/v1/team/members',
    auth: { scope: 'team:members' },
    summary: 'List team members',
    tags: ['team'],
    query: memberListQuery,
    response: memberList,
    handler: async ({ query, principal, deps }) => listMembers(deps.db, principal.teamId, toPage(query)),
  }),
  defineRoute({
    method: 'post',
    path: '/api/v1/team/members',
    auth: { scope: 'team:members' },
    summary: 'Add a team member',
    tags: ['team'],
    body: memberBody,
    response: memberAnswer,
    conflict: 'A user with this email already exists',
    status: 201,
    idempotent: true,
    handler: async ({ body, principal, deps }) => ({ data: await addMember(deps.db, principal.teamId, body) }),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/v1/team/members/:user_id',
    auth: { scope: 'team:members' },
    summary: 'Remove a team member',
    tags: ['team'],
    params: memberParams,
    status: 204,
    handler: async ({ params, principal, deps }) => removeMember(deps.db, principal.teamId, params.user_id, principal.userId),
  }),
];
