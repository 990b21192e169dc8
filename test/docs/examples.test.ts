import { z } from 'zod';
import { allRoutes } from '../../api/routes';
import { buildOpenApiDocument, operationOf } from '../../api/http/openapi';
import { errorSchema, oauthErrorSchema } from '../../api/http/error-schemas';
import { isRawResponse } from '../../api/http/route';

/**
 * Every operation of the OpenAPI document carries examples (request body, success answer, each
 * error), and each one parses with the route's own zod schemas — the ones the router and the
 * response check use — so an example cannot rot when a schema changes.
 */
const routes = allRoutes();
const doc = buildOpenApiDocument(routes, 'http://localhost:3000') as Parameters<typeof operationOf>[0];
const name = (r: (typeof routes)[number]) => `${r.method.toUpperCase()} ${r.path}`;

function problems(schema: z.ZodType, value: unknown): string[] {
  const r = schema.safeParse(value);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
}

describe('examples in the OpenAPI document', () => {
  it.each(routes.filter((r) => r.body).map((r) => [name(r), r] as const))(
    '%s: the request example parses with the body schema',
    (_n, r) => {
      const content = operationOf(doc, r).requestBody.content as Record<string, { example?: unknown }>;
      for (const media of Object.values(content)) {
        expect(media.example).toBeDefined();
        expect(problems(r.body!, media.example)).toEqual([]);
      }
    },
  );

  it.each(routes.filter((r) => r.params instanceof z.ZodObject).map((r) => [name(r), r] as const))(
    '%s: the path parameter examples parse with the params schema',
    (_n, r) => {
      const params = (operationOf(doc, r).parameters ?? []) as Array<{
        in: string;
        name: string;
        schema?: { example?: unknown };
        example?: unknown;
      }>;
      const values = Object.fromEntries(params.filter((p) => p.in === 'path').map((p) => [p.name, p.example ?? p.schema?.example]));
      for (const v of Object.values(values)) expect(v).toBeDefined();
      expect(problems(r.params!, values)).toEqual([]);
    },
  );

  it.each(routes.map((r) => [name(r), r] as const))('%s: the success and error examples parse with their schemas', (_n, r) => {
    const responses = operationOf(doc, r).responses as Record<string, { content?: Record<string, { example?: unknown }> }>;
    const status = String(r.status ?? 200);
    for (const [code, response] of Object.entries(responses)) {
      for (const [type, media] of Object.entries(response.content ?? {})) {
        expect(media.example).toBeDefined();
        if (r.alsoFor?.includes(Number(code)) && r.response && !isRawResponse(r.response)) {
          expect(problems(r.response, media.example)).toEqual([]);
        } else if (Number(code) >= 400 && type === 'text/html') {
          expect(media.example).toMatch(/^<!doctype html>/); // an error page (the OAuth sign-in and consent pages)
        } else if (Number(code) >= 400) {
          const oauth = (r.path === '/api/oauth/token' || r.path === '/api/oauth/revoke') && Number(code) < 429;
          expect(problems(oauth ? oauthErrorSchema : errorSchema, media.example)).toEqual([]);
        } else if (type === 'application/json' && r.response && !isRawResponse(r.response)) {
          expect(problems(r.response, media.example)).toEqual([]);
        }
      }
    }
    if (status !== '204')
      expect(Object.keys(responses)).toContain(isRawResponse(r.response) ? String(r.response.status ?? status) : status);
  });
});
