import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { isDashboardOnly, routeScope, type RouteDef } from './route';

/** `/api/v1/forms/:id` → `/api/v1/forms/{id}` */
export function toOpenApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

const errorSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
    request_id: z.string(),
  }),
});

function describeAuth(route: RouteDef): string {
  const a = route.auth;
  if (a === 'public') return 'Public (rate limited per client IP).';
  if ('staff' in a) return 'Staff dashboard session only.';
  const scope = routeScope(a);
  const parts = [scope ? `Scope: \`${scope}\`.` : ''];
  if (isDashboardOnly(a)) parts.push('Dashboard session only.');
  return parts.join(' ').trim();
}

/** The OpenAPI 3.1 document, generated from the same route table and zod schemas that the router uses. */
export function buildOpenApiDocument(routes: RouteDef[], baseUrl: string): object {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer' });
  registry.registerComponent('securitySchemes', 'apiKey', { type: 'apiKey', in: 'header', name: 'X-API-Key' });
  for (const route of routes) {
    const request: RouteConfig['request'] = {};
    if (route.params instanceof z.ZodObject) request.params = route.params;
    if (route.query instanceof z.ZodObject) request.query = route.query;
    if (route.body) {
      const content: Record<string, { schema: z.ZodType }> = {};
      for (const a of route.accepts ?? ['json']) {
        content[a === 'json' ? 'application/json' : 'application/x-www-form-urlencoded'] = { schema: route.body };
      }
      request.body = { content };
    }
    const status = route.status ?? 200;
    const ok = route.raw
      ? { description: 'HTML page or redirect' }
      : status === 204
        ? { description: 'No content' }
        : { description: 'Success', content: { 'application/json': { schema: route.response ?? z.object({ data: z.any() }) } } };
    registry.registerPath({
      method: route.method,
      path: toOpenApiPath(route.path),
      summary: route.summary,
      description: describeAuth(route),
      tags: route.tags,
      security: route.auth === 'public' ? [] : [{ bearer: [] }, { apiKey: [] }],
      request,
      responses: {
        [status]: ok,
        400: { description: 'Invalid request', content: { 'application/json': { schema: errorSchema } } },
        ...(route.auth === 'public'
          ? {}
          : { 401: { description: 'Missing or invalid credential' }, 403: { description: 'Insufficient scope' } }),
        429: { description: 'Rate limited' },
      },
    });
  }
  const generator = new OpenApiGeneratorV31(registry.definitions);
  return generator.generateDocument({
    openapi: '3.1.0',
    info: { title: 'Forms, Scheduling and Sequences API', version: '1.0.0' },
    servers: [{ url: baseUrl }],
  });
}
