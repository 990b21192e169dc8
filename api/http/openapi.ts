import { registerWebhooks, serverCallerHeaders } from './openapi-integrations';
import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { errorSchema, oauthErrorSchema } from './error-schemas';
import { errorExample, exampleOf, oauthErrorExample } from './openapi-examples';
import { isDashboardOnly, isRawResponse, routeRoles, routeScope, type RouteDef } from './route';

/** `/api/v1/forms/:id` → `/api/v1/forms/{id}` */
export function toOpenApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

function describeAuth(route: RouteDef): string {
  const a = route.auth;
  if (a === 'public')
    return `Public (rate limited per client IP${route.rateLimit && route.rateLimit !== 'public' ? `, bucket \`${route.rateLimit}\`` : ''}).`;
  if ('staff' in a) return 'Staff dashboard session only.';
  const scope = routeScope(a);
  const parts = [scope ? `Scope: \`${scope}\`.` : ''];
  if (isDashboardOnly(a)) parts.push('Dashboard session only.');
  const roles = routeRoles(a);
  if (roles) parts.push(`Roles: ${roles.join(', ')} (an API key acts with its creator's role).`);
  return parts.join(' ').trim();
}

/**
 * Query parameters are documented one by one, so a union of query variants (the calendar routes)
 * is shown as the merged list, each parameter optional; the description names the variants.
 */
function queryForDocs(schema: z.ZodType): z.ZodObject | undefined {
  if (schema instanceof z.ZodObject) return schema;
  if (schema instanceof z.ZodUnion) {
    const shape: Record<string, z.ZodType> = {};
    for (const option of schema.options as z.ZodType[]) {
      if (!(option instanceof z.ZodObject)) return undefined;
      for (const [k, v] of Object.entries(option.shape as Record<string, z.ZodType>)) shape[k] ??= v.optional();
    }
    return z.object(shape);
  }
  return undefined;
}

const json = (schema: z.ZodType) => ({ 'application/json': { schema } });
const retryAfter = {
  'Retry-After': { description: 'Seconds until the limit resets', schema: { type: 'integer' as const, minimum: 0 } },
};

/** The error answers an operation can give, each with the real body shape. */
function errorResponses(route: RouteDef): NonNullable<RouteConfig['responses']> {
  const out: NonNullable<RouteConfig['responses']> = {};
  const isOAuth = route.path === '/api/oauth/token' || route.path === '/api/oauth/revoke';
  if (isOAuth) {
    const token = route.path === '/api/oauth/token';
    out[400] = {
      description: token
        ? 'RFC 6749 §5.2 error: invalid_request, invalid_grant, unsupported_grant_type…, and invalid_client when the client sent its credentials in the body (client_id, client_secret)'
        : 'RFC 6749 §5.2 error: invalid_request (no `token`)',
      content: json(oauthErrorSchema),
    };
    out[401] = {
      description: token
        ? 'RFC 6749 §5.2 invalid_client when the client authenticated with HTTP Basic (with `WWW-Authenticate`)'
        : 'RFC 7009 §2.1 invalid_client: the client is authenticated first, wherever it sent its credentials',
      content: json(oauthErrorSchema),
    };
  } else if (isOAuthPage(route)) {
    // The sign-in and consent pages answer their errors as pages (a browser shows them), except what
    // fails before the page is reached: a body that cannot be read, a rate limit (JSON, as elsewhere).
    const page = { schema: { type: 'string' as const } };
    out[400] = {
      description:
        'An HTML error page when client_id or redirect_uri is unknown or does not match (never a redirect to an unverified URI); JSON `invalid_request` when the body cannot be read',
      content: { 'text/html': page, ...json(errorSchema) },
    };
    if (route.method === 'post') {
      out[403] = {
        description: 'An HTML error page: the form expired or did not come from this site (CSRF)',
        content: { 'text/html': page },
      };
    }
    if (route.path === '/api/oauth/login') {
      out[401] = { description: 'The sign-in page again, saying the email or password is wrong (HTML)', content: { 'text/html': page } };
    }
  } else if (route.params || route.query || route.body) {
    out[400] = {
      description: '`validation_failed`: `details` lists each bad field as `{path, message}` (or `invalid_request`)',
      content: json(errorSchema),
    };
  }
  if (route.auth !== 'public') {
    out[401] = { description: '`invalid_token` or `token_expired`: missing, unknown or expired credential', content: json(errorSchema) };
    const scope = routeScope(route.auth);
    const why = [
      scope ? `\`insufficient_scope\`: the credential lacks \`${scope}\`` : '',
      isDashboardOnly(route.auth) ? '`dashboard_only`: API keys and OAuth tokens cannot call it' : '',
      'staff' in route.auth ? '`forbidden`: staff only' : '',
      (routeRoles(route.auth)?.length ?? 3) < 3 ? "`forbidden`: the acting user's role may not call it" : '',
    ].filter(Boolean);
    out[403] = { description: why.join('; ') || 'Forbidden', content: json(errorSchema) };
  }
  if (route.path.includes(':') && !route.raw) {
    out[404] = { description: "`not_found`: no such record in the caller's team", content: json(errorSchema) };
  }
  if (route.conflict) out[409] = { description: route.conflict, content: json(errorSchema) };
  out[429] = {
    description: '`rate_limited`: retry after the number of seconds in `Retry-After`',
    headers: retryAfter,
    content: json(errorSchema),
  };
  if (route.path === '/api/oauth/login') {
    out[429].description =
      'Too many sign-in attempts: the sign-in page saying so (HTML), or `rate_limited` (JSON); retry after `Retry-After`';
    out[429].content = { 'text/html': { schema: { type: 'string' as const } }, ...json(errorSchema) };
  }
  return out;
}

/** The OAuth sign-in and consent pages (`/api/oauth/authorize`, `/api/oauth/login`): they answer HTML. */
function isOAuthPage(route: RouteDef): boolean {
  return route.path === '/api/oauth/authorize' || route.path === '/api/oauth/login';
}

function successResponse(route: RouteDef): { status: number; response: NonNullable<RouteConfig['responses']>[number] } {
  const status = route.status ?? 200;
  const declared = route.response;
  if (status === 204) return { status, response: { description: 'No content' } };
  if (isRawResponse(declared)) {
    const s = declared.status ?? status;
    return {
      status: s,
      response: {
        description: declared.description,
        ...(s >= 300 && s < 400 ? {} : { content: { [declared.mediaType]: { schema: { type: 'string' as const } } } }),
      },
    };
  }
  const content: Record<string, { schema: z.ZodType | { type: 'string' } }> = json(declared ?? z.unknown());
  if (route.alternate) content[route.alternate.mediaType] = { schema: { type: 'string' } };
  const description = route.alternate ? `Success. ${route.alternate.description}` : 'Success';
  return { status, response: { description, content } };
}

/** The OpenAPI 3.1 document, generated from the same route table and zod schemas that the router uses. */
export function buildOpenApiDocument(routes: RouteDef[], baseUrl: string): object {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearer', {
    type: 'http',
    scheme: 'bearer',
    description: 'An API key (`sk_live_…`), an OAuth access token, or a dashboard session token',
  });
  registry.registerComponent('securitySchemes', 'apiKey', { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'An API key' });
  for (const route of routes) {
    const request: RouteConfig['request'] = {};
    if (route.params instanceof z.ZodObject) request.params = route.params;
    const query = route.query ? queryForDocs(route.query) : undefined;
    if (query) request.query = query;
    if (route.body) {
      const content: Record<string, { schema: z.ZodType }> = {};
      for (const a of route.accepts ?? ['json']) {
        content[a === 'json' ? 'application/json' : 'application/x-www-form-urlencoded'] = { schema: route.body };
      }
      request.body = { content, required: true };
    }
    // A public submission or booking may come from a server with its team's key and its visitor's address (server-caller.ts).
    const fromServer = route.auth === 'public' && route.rateLimit === 'submit';
    if (fromServer) request.headers = serverCallerHeaders;
    const ok = successResponse(route);
    registry.registerPath({
      method: route.method,
      path: toOpenApiPath(route.path),
      operationId: operationId(route),
      summary: route.summary,
      description: describeAuth(route),
      tags: route.tags,
      security: fromServer ? [{}, { apiKey: [] }, { bearer: [] }] : route.auth === 'public' ? [] : [{ bearer: [] }, { apiKey: [] }],
      request,
      responses: {
        [ok.status]: ok.response,
        ...Object.fromEntries(
          (route.alsoFor ?? []).map((s) => [
            s,
            route.response && !isRawResponse(route.response)
              ? { description: `Also answered with status ${s}`, content: json(route.response) }
              : ok.response,
          ]),
        ),
        ...errorResponses(route),
      },
    });
  }
  registerWebhooks(registry);
  const generator = new OpenApiGeneratorV31(registry.definitions, { unionPreferredType: 'oneOf' });
  const document = generator.generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Forms, Scheduling and Sequences API',
      version: '1.0.0',
      description: 'Forms and submissions, contacts, booking pages and meetings, email/SMS sequences, webhooks and OAuth apps.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: baseUrl }],
  });
  addExamples(document as unknown as OpenApiDoc, routes);
  return document;
}

type Json = Record<string, any>;
interface OpenApiDoc {
  paths: Record<string, Record<string, Json>>;
  components: { schemas: Record<string, Json> };
}

const RAW_EXAMPLES: Record<string, string> = {
  'text/html': '<!doctype html><html lang="en">…</html>',
  'text/calendar': 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\n…\r\nEND:VCALENDAR\r\n',
  'text/xml': '<?xml version="1.0" encoding="UTF-8"?><Response></Response>',
  'text/plain': '',
  'application/javascript': '(function () { /* … */ })();',
  'image/png': '(binary PNG)',
  'image/gif': '(binary GIF)',
};

/** The operation of a route in the generated document. */
export function operationOf(doc: OpenApiDoc, route: RouteDef): Json {
  return doc.paths[toOpenApiPath(route.path)][route.method];
}

/** Request, response and error examples on every operation (see openapi-examples.ts). */
function addExamples(doc: OpenApiDoc, routes: RouteDef[]): void {
  const components = doc.components?.schemas ?? {};
  for (const route of routes) {
    const op = operationOf(doc, route);
    for (const [type, media] of Object.entries<Json>(op.requestBody?.content ?? {})) {
      media.example = route.examples?.request ?? exampleOf(media.schema, components, { requiredOnly: true });
      if (type === 'application/x-www-form-urlencoded' && route.examples?.request === undefined) media.example = {};
    }
    const scope = routeScope(route.auth);
    for (const [status, response] of Object.entries<Json>(op.responses ?? {})) {
      for (const [type, media] of Object.entries<Json>(response.content ?? {})) {
        const code = Number(status);
        if (route.examples?.byStatus?.[code] !== undefined) {
          media.example = route.examples.byStatus[code];
        } else if (code >= 400 && type === 'text/html') {
          media.example = RAW_EXAMPLES[type]; // an error page
        } else if (code >= 400) {
          const isOAuth = (route.path === '/api/oauth/token' || route.path === '/api/oauth/revoke') && code < 429;
          media.example = isOAuth ? oauthErrorExample : errorExample(code, scope, route.conflict);
        } else if (type === 'application/json' && !isRawResponse(route.response)) {
          media.example = route.examples?.response ?? exampleOf(media.schema, components);
        } else {
          media.example = RAW_EXAMPLES[type] ?? '';
        }
      }
    }
  }
}

/** A stable operation id from method and path: `get /api/v1/forms/:id` → `getApiV1FormsById`. */
export function operationId(route: RouteDef): string {
  const words = route.path
    .split('/')
    .filter(Boolean)
    .map((seg) => (seg.startsWith(':') ? `by_${seg.slice(1)}` : seg))
    .flatMap((seg) => seg.split(/[^A-Za-z0-9]+/))
    .filter(Boolean);
  return route.method + words.map((w) => w[0].toUpperCase() + w.slice(1)).join('');
}
