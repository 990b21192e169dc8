import type { Context } from 'koa';
import { escapeHtml, page } from '../../../core/html';
import {
  completeZoomConnect,
  disconnectZoom,
  getZoomConnection,
  startZoomConnect,
  ZoomConnectError,
} from '../../../services/zoom/connections';
import { defineRoute } from '../../http/route';
import { zoomAuthorizeAnswer, zoomCallbackQuery, zoomConnectionAnswer } from './schema';

const tags = ['Zoom'];
const iso = (d: Date | string) => new Date(d).toISOString();

function html(ctx: Context, status: number, title: string, text: string): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Cache-Control', 'no-store');
  ctx.body = page(title, `<main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></main>`);
}

/** A host's own Zoom account (ZOOM_SETUP=per_host; docs/scheduling.md "Zoom"). */
export const zoomConnectionRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/v1/zoom-connection/authorize',
    auth: { dashboardOnly: true, scope: 'scheduling:write' },
    tags,
    summary: "Dashboard: start connecting the caller's Zoom account; answers Zoom's authorization page to open",
    response: zoomAuthorizeAnswer,
    handler: ({ principal, deps }) => ({ data: startZoomConnect(deps, { principal }) }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/v1/zoom-connection/callback',
    auth: 'public',
    rateLimit: 'pages',
    tags,
    raw: true,
    summary: "Zoom's redirect back with a code: exchanged at once (one bounded call, no retry); answers a page saying whether it worked",
    query: zoomCallbackQuery,
    response: { mediaType: 'text/html', description: 'Zoom connected, or why not (400)' },
    handler: async ({ ctx, query, deps }) => {
      if (!query.code || !query.state)
        return html(ctx, 400, 'Zoom was not connected', 'Zoom came back without a code. Start again from the dashboard.');
      try {
        await completeZoomConnect(deps, { code: query.code, state: query.state });
      } catch (err) {
        if (err instanceof ZoomConnectError) return html(ctx, 400, 'Zoom was not connected', err.message);
        throw err;
      }
      html(ctx, 200, 'Zoom is connected', 'New bookings get a Zoom meeting. You can close this page.');
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/v1/zoom-connection',
    auth: { scope: 'scheduling:read' },
    tags,
    summary: "The caller's Zoom connection (never its tokens); 404 when there is none",
    response: zoomConnectionAnswer,
    handler: async ({ principal, deps }) => {
      const c = await getZoomConnection(deps, { principal });
      return { data: { ...c, created_at: iso(c.created_at), updated_at: iso(c.updated_at) } };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/api/v1/zoom-connection',
    auth: { dashboardOnly: true, scope: 'scheduling:write' },
    tags,
    status: 204,
    summary: "Dashboard: disconnect the caller's Zoom account: its tokens are deleted and its meetings' Zoom data purged",
    handler: ({ principal, deps }) => disconnectZoom(deps, { principal }),
  }),
];
