import type { Context } from 'koa';
import { ApiError } from '../../../core/errors';
import { CalendarConnectError } from '../../../services/calendars/oauth-connect';
import { completeMicrosoftConnect, startMicrosoftConnect } from '../../../services/calendars/microsoft-connect';
import { handleMicrosoftPush, type GraphNotification } from '../../../services/calendars/microsoft-push';
import { defineRoute } from '../../http/route';
import { connectPage } from '../calendar-connect-page';
import { microsoftAuthorizeAnswer, microsoftCallbackQuery, microsoftHookAnswer, microsoftHookBody, microsoftHookQuery } from './schema';

const tags = ['calendar connections'];
const FAILED = 'Microsoft 365 was not connected';

/** Graph's notifications: the validation handshake echoed in text/plain, else the batch checked and answered 202 at once. */
async function hook(
  ctx: Context,
  deps: Parameters<typeof handleMicrosoftPush>[0],
  query: { validationToken?: string },
  body: { value?: GraphNotification[] },
) {
  if (query.validationToken !== undefined) {
    ctx.status = 200;
    ctx.type = 'text/plain; charset=utf-8';
    ctx.body = query.validationToken;
    return;
  }
  const outcome = await handleMicrosoftPush(deps, { notifications: body.value ?? [] });
  if (outcome === 'refused') throw new ApiError(401, 'invalid_token', 'Wrong clientState');
  ctx.status = 202;
  ctx.body = { outcome };
}

const hookRoute = (path: string, what: string) =>
  defineRoute({
    method: 'post',
    path,
    auth: 'public',
    rateLimit: 'pages',
    tags,
    raw: true,
    summary: `Microsoft Graph's ${what} (subscriptions on the hosts' calendars): the validation request (\`validationToken\`) is echoed in text/plain; otherwise each notification's clientState is checked against the stored subscription and a right one wakes the calendar's sync (202). No call to Microsoft is made here`,
    query: microsoftHookQuery,
    body: microsoftHookBody,
    response: microsoftHookAnswer,
    alternate: { mediaType: 'text/plain', description: 'The validation request: its validationToken, echoed' },
    handler: ({ ctx, deps, query, body }) => hook(ctx, deps, query, body as { value?: GraphNotification[] }),
  });

/**
 * A host's Microsoft 365 calendar (docs/calendars.md "Microsoft 365"): the OAuth 2.0 connect (started
 * from the dashboard, the code exchanged at the callback, everything after it in the worker) and
 * Graph's change and lifecycle notifications. The connection itself lives under /api/v1/calendar-connections.
 */
export const microsoftCalendarRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/v1/microsoft-calendar/authorize',
    auth: { dashboardOnly: true, scope: 'scheduling:write' },
    tags,
    summary:
      "Dashboard: start connecting the caller's Microsoft 365 calendar; answers Microsoft's sign-in page to open (PKCE, state bound to the session)",
    response: microsoftAuthorizeAnswer,
    handler: ({ principal, deps }) => ({ data: startMicrosoftConnect(deps, { principal }) }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/v1/microsoft-calendar/callback',
    auth: 'public',
    rateLimit: 'pages',
    tags,
    raw: true,
    summary:
      "Microsoft's redirect back with a code: exchanged at once (one bounded call, no retry), granted scopes checked; answers a page saying whether it worked",
    query: microsoftCallbackQuery,
    response: { mediaType: 'text/html', description: 'Microsoft 365 connected, or why not (400)' },
    handler: async ({ ctx, query, deps }) => {
      if (query.error) return connectPage(ctx, 400, FAILED, 'Microsoft did not give access. Start again from the dashboard.');
      if (!query.code || !query.state)
        return connectPage(ctx, 400, FAILED, 'Microsoft came back without a code. Start again from the dashboard.');
      let email: string;
      try {
        ({ accountEmail: email } = await completeMicrosoftConnect(deps, { code: query.code, state: query.state }));
      } catch (err) {
        if (err instanceof CalendarConnectError) return connectPage(ctx, 400, FAILED, err.message);
        throw err;
      }
      connectPage(
        ctx,
        200,
        'Microsoft 365 is connected',
        `${email} is connected. Its calendars are being read now; until then your booking pages offer no times. You can close this page.`,
      );
    },
  }),
  hookRoute('/api/hooks/microsoft-calendar', 'change notifications'),
  hookRoute('/api/hooks/microsoft-calendar/lifecycle', 'lifecycle notifications (reauthorizationRequired, subscriptionRemoved, missed)'),
];
