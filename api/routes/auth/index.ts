import { defineRoute } from '../../http/route';
import { login, logout } from '../../../services/sessions';
import { requestPasswordReset } from '../../../services/accounts/password-reset';
import { loginBody, resetAnswer, resetBody, sessionAnswer } from './schema';

export const authRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/auth/login',
    auth: 'public',
    summary:
      'Sign in to the dashboard: returns a session token (svc_us_…, 12 h). Every failure answers 401 alike; repeated failures per address and per IP get 429 with a growing Retry-After',
    tags: ['auth'],
    body: loginBody,
    response: sessionAnswer,
    handler: async ({ body, deps, ctx }) => ({
      data: await login(deps, { email: body.email, password: body.password, client: { ip: ctx.ip, userAgent: ctx.get('user-agent') } }),
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/auth/logout',
    auth: { dashboardOnly: true, roles: ['owner', 'admin', 'member'] },
    summary: 'End the current dashboard session',
    tags: ['auth'],
    status: 204,
    handler: async ({ principal, deps }) => logout(deps, { sessionId: principal.credentialId }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/auth/password-reset',
    auth: 'public',
    summary:
      'Ask for a password-reset link (valid 1 h, single use). Always 202, whether the address has an account or not; limited per IP and per address (429)',
    tags: ['auth'],
    body: resetBody,
    status: 202,
    response: resetAnswer,
    handler: async ({ body, deps, ctx }) => {
      await requestPasswordReset(deps, { email: body.email, ip: ctx.ip });
      return { data: { accepted: true as const, message: 'If an account uses this address, a reset link is on its way' } };
    },
  }),
];
