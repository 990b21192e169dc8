import { ApiError } from '../../../core/errors';
import { completeGoogleConnect, startGoogleConnect } from '../../../services/calendars/google-connect';
import { CalendarConnectError } from '../../../services/calendars/oauth-connect';
import { handleGooglePush } from '../../../services/calendars/google-push';
import { defineRoute } from '../../http/route';
import { connectPage } from '../calendar-connect-page';
import { googleAuthorizeAnswer, googleCallbackQuery, googlePushAnswer } from './schema';

const tags = ['calendar connections'];
const FAILED = 'Google Calendar was not connected';

/**
 * A host's Google Calendar (docs/calendars.md "Google Calendar"): the OAuth 2.0 connect (started from
 * the dashboard, the code exchanged at the callback, everything after it in the worker) and Google's
 * push notifications. The connection itself is read, changed and deleted under /api/v1/calendar-connections.
 */
export const googleCalendarRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/v1/google-calendar/authorize',
    auth: { dashboardOnly: true, scope: 'scheduling:write' },
    tags,
    summary:
      "Dashboard: start connecting the caller's Google Calendar; answers Google's consent page to open (PKCE, state bound to the session)",
    response: googleAuthorizeAnswer,
    handler: ({ principal, deps }) => ({ data: startGoogleConnect(deps, { principal }) }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/v1/google-calendar/callback',
    auth: 'public',
    rateLimit: 'pages',
    tags,
    raw: true,
    summary:
      "Google's redirect back with a code: exchanged at once (one bounded call, no retry), granted scopes checked; answers a page saying whether it worked",
    query: googleCallbackQuery,
    response: { mediaType: 'text/html', description: 'Google Calendar connected, or why not (400)' },
    handler: async ({ ctx, query, deps }) => {
      if (query.error) return connectPage(ctx, 400, FAILED, 'Google did not give access. Start again from the dashboard.');
      if (!query.code || !query.state)
        return connectPage(ctx, 400, FAILED, 'Google came back without a code. Start again from the dashboard.');
      let email: string;
      try {
        ({ accountEmail: email } = await completeGoogleConnect(deps, { code: query.code, state: query.state }));
      } catch (err) {
        if (err instanceof CalendarConnectError) return connectPage(ctx, 400, FAILED, err.message);
        throw err;
      }
      connectPage(
        ctx,
        200,
        'Google Calendar is connected',
        `${email} is connected. Its calendars are being read now; until then your booking pages offer no times. You can close this page.`,
      );
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/hooks/google-calendar',
    auth: 'public',
    rateLimit: 'pages',
    tags,
    summary:
      "Google's push notifications (events.watch channels): X-Goog-Channel-ID and X-Goog-Channel-Token checked against the stored channel; a right one wakes the calendar's sync, no call to Google is made here",
    response: googlePushAnswer,
    handler: async ({ ctx, deps }) => {
      const outcome = await handleGooglePush(deps, {
        channelId: ctx.get('x-goog-channel-id'),
        token: ctx.get('x-goog-channel-token'),
        resourceState: ctx.get('x-goog-resource-state'),
      });
      if (outcome === 'refused') throw new ApiError(401, 'invalid_token', 'Wrong channel token');
      return { outcome };
    },
  }),
];
