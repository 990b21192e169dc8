import { buildOpenApiDocument, toOpenApiPath } from '../../http/openapi';
import { defineRoute, type RouteDef } from '../../http/route';
import { randomToken } from '../../../core/crypto';
import { notFound } from '../../../core/errors';
import { docsAsset } from '../../pages/docs/assets';
import { docsCsp, renderDocsPage } from '../../pages/docs/page';
import { sendScript } from '../../http/static-asset';
import { assetParams, assetQuery, openApiDocument } from './schema';

let cached: object | undefined;

/** The OpenAPI document, and the API reference that renders it (no CDN: the service runs offline too). */
export function docsRoutes(all: () => RouteDef[]): RouteDef[] {
  const doc = (baseUrl: string) => (cached ??= buildOpenApiDocument(all(), baseUrl));
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/openapi.json',
      auth: 'public',
      rateLimit: 'pages',
      summary: 'The OpenAPI 3.1 document of every route',
      tags: ['docs'],
      response: openApiDocument,
      handler: async ({ ctx, deps }) => {
        ctx.set('Cache-Control', 'public, max-age=300');
        return doc(deps.config.baseUrl);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/docs',
      auth: 'public',
      rateLimit: 'pages',
      summary: 'The API reference: every operation with its parameters, schemas, errors and examples, and a try-it panel',
      tags: ['docs'],
      raw: true,
      response: { mediaType: 'text/html', description: 'The API reference (HTML)' },
      handler: ({ ctx }) => {
        const nonce = randomToken(16);
        ctx.set('Content-Security-Policy', docsCsp(nonce));
        ctx.set('Cache-Control', 'no-store');
        ctx.type = 'text/html; charset=utf-8';
        ctx.body = renderDocsPage(
          nonce,
          '/api/v1/openapi.json',
          all().map((r) => ({ method: r.method, path: toOpenApiPath(r.path), summary: r.summary })),
        );
      },
    }),
    defineRoute({
      method: 'get',
      path: '/docs/assets/:name',
      auth: 'public',
      rateLimit: 'none',
      summary: "The API reference's scripts (`?v=<hash>` URLs are cached for a year)",
      tags: ['docs'],
      raw: true,
      params: assetParams,
      query: assetQuery,
      response: { mediaType: 'application/javascript', description: 'A script of the API reference (304 when the ETag matches)' },
      handler: ({ params, query, ctx }) => {
        const asset = docsAsset(params.name);
        if (!asset) throw notFound('Asset');
        sendScript(ctx, asset, query.v);
      },
    }),
  ];
}
