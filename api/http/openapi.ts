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

/** RFC 6749 §5.2: the error body of the token and revocation endpoints (`rate_limited` and `server_error` besides the RFC's codes). */
export const oauthErrorSchema = z
  .object({ error: z.string(), error_description: z.string().optional(), error_uri: z.string().optional() })
  .meta({ title: 'OAuth 2.0 error (RFC 6749 §5.2)' });

function describeAuth(route: RouteDef): string {
  const a = route.auth;
  if (a === 'public')
    return `Public (rate limited per client IP${route.rateLimit && route.rateLimit !== 'public' ? `, bucket \`${route.rateLimit}\`` : ''}).`;
  if ('staff' in a) return 'Staff dashboard session only.';
  const scope = routeScope(a);
  const parts = [scope ? `Scope: \`${scope}\`.` : ''];
  if (isDashboardOnly(a)) parts.push('Dashboard session only.');
  return parts.join(' ').trim();
}

/**
 * Query parameters: an object becomes one parameter per key; a union (two variants of one
 * endpoint) becomes one `form`-style exploded object parameter whose schema is the oneOf, which
 * is how OpenAPI expresses "one of these sets of query parameters". Its schema is zod's own JSON
 * Schema (2020-12, the dialect of OpenAPI 3.1) of the request side.
 */
function queryParameters(route: RouteDef, request: NonNullable<RouteConfig['request']>): RouteConfig['parameters'] {
  if (route.query instanceof z.ZodObject) {
    request.query = route.query;
    return undefined;
  }
  if (!(route.query instanceof z.ZodUnion)) return undefined;
  const {
    $schema: _dialect,
    anyOf,
    ...rest
  } = z.toJSONSchema(route.query, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  const schema = anyOf ? { ...rest, oneOf: anyOf } : rest; // the variants exclude each other
  return [{ name: 'query', in: 'query', required: true, style: 'form', explode: true, schema }];
}

function successResponse(route: RouteDef) {
  const status = route.status ?? 200;
  if (status === 204) return { description: 'No content' };
  if (route.response) return { description: 'Success', content: { 'application/json': { schema: route.response } } };
  if (route.raw) return { description: 'HTML page, redirect or other non-JSON body' };
  return { description: 'Success', content: { 'application/json': { schema: z.object({ data: z.any() }) } } };
}

function errorResponses(route: RouteDef): RouteConfig['responses'] {
  if (route.errorShape === 'oauth') {
    const content = { 'application/json': { schema: oauthErrorSchema } };
    return {
      400: { description: 'invalid_request, invalid_grant, unsupported_grant_type, …', content },
      401: { description: 'invalid_client', content },
      429: { description: 'rate_limited', content },
    };
  }
  return {
    400: { description: 'Invalid request', content: { 'application/json': { schema: errorSchema } } },
    ...(route.auth === 'public'
      ? {}
      : { 401: { description: 'Missing or invalid credential' }, 403: { description: 'Insufficient scope' } }),
    429: { description: 'Rate limited' },
  };
}

/** The OpenAPI 3.1 document, generated from the same route table and zod schemas that the router uses. */
export function buildOpenApiDocument(routes: RouteDef[], baseUrl: string): object {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer' });
  registry.registerComponent('securitySchemes', 'apiKey', { type: 'apiKey', in: 'header', name: 'X-API-Key' });
  for (const route of routes) {
    const request: RouteConfig['request'] = {};
    if (route.params instanceof z.ZodObject) request.params = route.params;
    const parameters = queryParameters(route, request);
    if (route.body) {
      const content: Record<string, { schema: z.ZodType }> = {};
      for (const a of route.accepts ?? ['json']) {
        content[a === 'json' ? 'application/json' : 'application/x-www-form-urlencoded'] = { schema: route.body };
      }
      request.body = { content };
    }
    registry.registerPath({
      method: route.method,
      path: toOpenApiPath(route.path),
      summary: route.summary,
      description: describeAuth(route),
      tags: route.tags,
      security: route.auth === 'public' ? [] : [{ bearer: [] }, { apiKey: [] }],
      request,
      ...(parameters ? { parameters } : {}),
      responses: { [route.status ?? 200]: successResponse(route), ...errorResponses(route) },
    });
  }
  const generator = new OpenApiGeneratorV31(registry.definitions, { unionPreferredType: 'oneOf' });
  return generator.generateDocument({
    openapi: '3.1.0',
    info: { title: 'Forms, Scheduling and Sequences API', version: '1.0.0' },
    servers: [{ url: baseUrl }],
  });
}
