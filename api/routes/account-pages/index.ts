import type { Context } from 'koa';
import { defineRoute } from '../../http/route';
import {
  ACCOUNT_PAGE_CSP,
  confirmEmailPage,
  emailConfirmedPage,
  emailTakenPage,
  invalidLinkPage,
  invitationAcceptedPage,
  invitationPage,
  passwordChangedPage,
  resetPasswordPage,
} from '../../pages/accounts';
import { acceptInvitation, invitationView } from '../../../services/accounts/accept-invitation';
import { resetPassword, resetTarget } from '../../../services/accounts/password-reset';
import { confirmEmailChange, emailChangeTarget } from '../../../services/accounts/profile';
import { emptyForm, invitationForm, pageAnswer, resetForm, tokenParams as params } from './schema';

const tags = ['accounts (public pages)'];

/** The token is in the address: keep it out of caches and Referer headers. */
function html(ctx: Context, status: number, body: string): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set({ 'Cache-Control': 'no-store', 'Content-Security-Policy': ACCOUNT_PAGE_CSP, 'Referrer-Policy': 'no-referrer' });
  ctx.body = body;
}

const mismatch = (a?: string, b?: string) => (a ?? '') !== (b ?? '');

export const accountPageRoutes = [
  defineRoute({
    method: 'get',
    path: '/account/invitations/:token',
    auth: 'public',
    rateLimit: 'pages',
    summary: 'Invitation page: set a name and a password to join the team',
    tags,
    params,
    raw: true,
    response: pageAnswer,
    handler: async ({ ctx, deps, params }) => {
      const view = await invitationView(deps, { token: params.token });
      if (!view) return html(ctx, 404, invalidLinkPage());
      html(ctx, 200, invitationPage(params.token, view));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/account/invitations/:token',
    auth: 'public',
    summary: 'Accept an invitation (form post of the invitation page)',
    tags,
    params,
    accepts: ['form'],
    body: invitationForm,
    raw: true,
    response: pageAnswer,
    handler: async ({ ctx, deps, params, body }) => {
      const view = await invitationView(deps, { token: params.token });
      if (!view) return html(ctx, 404, invalidLinkPage());
      if (mismatch(body.password, body.password_confirm)) {
        return html(ctx, 400, invitationPage(params.token, view, { error: 'The two passwords differ.', name: body.name }));
      }
      const out = await acceptInvitation(deps, { token: params.token, name: body.name ?? '', password: body.password ?? '' });
      if (out.ok) return html(ctx, 200, invitationAcceptedPage(out.teamName, out.email));
      if (out.reason === 'invalid_link') return html(ctx, 404, invalidLinkPage());
      if (out.reason === 'not_acceptable') return html(ctx, 409, invitationPage(params.token, out.view));
      html(ctx, 400, invitationPage(params.token, out.view, { error: out.message, name: body.name }));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/account/reset-password/:token',
    auth: 'public',
    rateLimit: 'pages',
    summary: 'Password-reset page: choose a new password',
    tags,
    params,
    raw: true,
    response: pageAnswer,
    handler: async ({ ctx, deps, params }) => {
      const target = await resetTarget(deps, { token: params.token });
      if (!target) return html(ctx, 404, invalidLinkPage());
      html(ctx, 200, resetPasswordPage(params.token, target.email));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/account/reset-password/:token',
    auth: 'public',
    summary: 'Set the new password (form post of the reset page); signs out every session of the user',
    tags,
    params,
    accepts: ['form'],
    body: resetForm,
    raw: true,
    response: pageAnswer,
    handler: async ({ ctx, deps, params, body }) => {
      const target = await resetTarget(deps, { token: params.token });
      if (!target) return html(ctx, 404, invalidLinkPage());
      if (mismatch(body.password, body.password_confirm)) {
        return html(ctx, 400, resetPasswordPage(params.token, target.email, 'The two passwords differ.'));
      }
      const out = await resetPassword(deps, { token: params.token, password: body.password ?? '' });
      if (out.ok) return html(ctx, 200, passwordChangedPage(out.email));
      if (out.reason === 'invalid_link') return html(ctx, 404, invalidLinkPage());
      html(ctx, 400, resetPasswordPage(params.token, target.email, out.message));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/account/confirm-email/:token',
    auth: 'public',
    rateLimit: 'pages',
    summary: 'Email-change confirmation page (a button: a link scanner changes nothing)',
    tags,
    params,
    raw: true,
    response: pageAnswer,
    handler: async ({ ctx, deps, params }) => {
      const target = await emailChangeTarget(deps, { token: params.token });
      if (!target) return html(ctx, 404, invalidLinkPage());
      html(ctx, 200, confirmEmailPage(params.token, target.newEmail));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/account/confirm-email/:token',
    auth: 'public',
    summary: 'Confirm the new email address (form post of the confirmation page)',
    tags,
    params,
    accepts: ['form'],
    body: emptyForm,
    raw: true,
    response: pageAnswer,
    handler: async ({ ctx, deps, params }) => {
      const out = await confirmEmailChange(deps, { token: params.token });
      if (out.ok) return html(ctx, 200, emailConfirmedPage(out.email));
      if (out.reason === 'taken') return html(ctx, 409, emailTakenPage());
      html(ctx, 404, invalidLinkPage());
    },
  }),
];
