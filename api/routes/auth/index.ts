import { z } from 'zod';
import { defineRoute } from '../../http/route';
import { login, logout } from '../../../services/sessions';

export const authRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/auth/login',
    auth: 'public',
    summary: 'Sign in to the dashboard: returns a session token (svc_us_…, 12 h)',
    tags: ['auth'],
    body: z.strictObject({ email: z.email().max(320), password: z.string().min(1).max(1024) }),
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
