import { defineRoute } from '../../http/route';
import { login, logout } from '../../../services/sessions';
import { loginBody, sessionAnswer } from './schema';

export const authRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/auth/login',
    auth: 'public',
    summary: 'Sign in to the dashboard: returns a session token (svc_us_…, 12 h)',
    tags: ['auth'],
    body: loginBody,
    response: sessionAnswer,
    handler: async ({ body, deps }) => ({ data: await login(deps.db, body.email, body.password) }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/auth/logout',
    auth: { dashboardOnly: true },
    summary: 'End the current dashboard session',
    tags: ['auth'],
    status: 204,
    handler: async ({ principal, deps }) => logout(deps.db, principal.credentialId),
  }),
];
