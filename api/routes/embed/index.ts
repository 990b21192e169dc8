import { defineRoute, type RouteDef } from '../../http/route';
import { sendScript } from '../../http/static-asset';
import { embedAsset } from '../../pages/embed/asset';
import { embedQuery } from './schema';

/** Routes of the embed feature: the embed script. */
export const embedRoutes: RouteDef[] = [
  defineRoute({
    method: 'get',
    path: '/embed.js',
    auth: 'public',
    // Static, from memory, with ETag and Cache-Control: not counted (a host page's visitors share NAT IPs).
    rateLimit: 'none',
    raw: true,
    summary: 'The embed script (inline, popup, slider, sidetab); `?v=<hash>` URLs are cached for a year, the bare URL revalidates by ETag',
    tags: ['embed'],
    query: embedQuery,
    response: { mediaType: 'application/javascript', description: 'The embed script (304 when the ETag matches)' },
    handler: ({ query, ctx }) => {
      sendScript(ctx, embedAsset(), query.v, {
        'Cross-Origin-Resource-Policy': 'cross-origin',
        'Access-Control-Allow-Origin': '*',
      });
    },
  }),
];
