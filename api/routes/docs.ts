import { buildOpenApiDocument } from '../http/openapi';
import { defineRoute, type RouteDef } from '../http/route';
import { escapeHtml } from '../../core/html';

let cached: object | undefined;

/** The OpenAPI document and a small HTML browser for it (no CDN: the service runs offline too). */
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
      summary: 'Browsable API reference',
      tags: ['docs'],
      raw: true,
      handler: async ({ ctx, deps }) => {
        const d = doc(deps.config.baseUrl) as {
          paths: Record<string, Record<string, { summary?: string; description?: string; tags?: string[] }>>;
        };
        const rows = Object.entries(d.paths).flatMap(([p, ops]) =>
          Object.entries(ops).map(
            ([m, op]) =>
              `<tr><td><code>${m.toUpperCase()}</code></td><td><code>${escapeHtml(p)}</code></td><td>${escapeHtml(op.summary ?? '')}</td><td>${escapeHtml(op.description ?? '')}</td></tr>`,
          ),
        );
        ctx.type = 'html';
        ctx.set('Cache-Control', 'public, max-age=300');
        ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>API reference</title>
<style>body{font:14px system-ui,sans-serif;margin:2rem}table{border-collapse:collapse}td{border-bottom:1px solid #ddd;padding:4px 8px;vertical-align:top}</style>
</head><body><h1>API reference</h1><p>Machine-readable: <a href="/api/v1/openapi.json">/api/v1/openapi.json</a></p>
<table><thead><tr><th>Method</th><th>Path</th><th>Summary</th><th>Access</th></tr></thead><tbody>${rows.join('')}</tbody></table></body></html>`;
      },
    }),
  ];
}
