import { defineRoute, type RouteDef } from '../../http/route';
import { embedAsset, etagMatches } from '../../pages/embed/asset';
import { embedQuery } from './schema';

const YEAR = 365 * 24 * 3600;

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
    handler: async ({ query, ctx }) => {
      const asset = embedAsset();
      const pinned = query.v === asset.hash;
      ctx.set('ETag', asset.etag);
      ctx.set('Cache-Control', pinned ? `public, max-age=${YEAR}, immutable` : 'public, max-age=300, must-revalidate');
      ctx.set('Vary', 'Accept-Encoding');
      ctx.set('Cross-Origin-Resource-Policy', 'cross-origin');
      ctx.set('Access-Control-Allow-Origin', '*');
      if (etagMatches(ctx.get('if-none-match'), asset.etag)) {
        ctx.status = 304;
        return;
      }
      ctx.type = 'application/javascript; charset=utf-8';
      ctx.status = 200;
      if (ctx.acceptsEncodings('gzip', 'identity') === 'gzip') {
        ctx.set('Content-Encoding', 'gzip');
        ctx.body = asset.gzip;
      } else {
        ctx.body = asset.source;
      }
    },
  }),
];
