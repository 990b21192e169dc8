import type { Context, Next } from 'koa';
import { z } from 'zod';
import { logger } from '../../core/logger';
import { errorSchema, oauthErrorSchema } from './error-schemas';
import { isRawResponse, type RouteDef } from './route';

/**
 * The test app's guard against a document that drifts from the server (VALIDATE_RESPONSES=true):
 * every success answer is checked against the route's declared response schema, every error
 * answer against the documented error shape. A mismatch replaces the answer with a 500
 * `response_schema_mismatch` naming the route and the failing paths, so the test that exercised
 * the route fails. Off in production: it costs a JSON round trip per answer.
 */

const OAUTH_RFC6749_PATHS = new Set(['/api/oauth/token', '/api/oauth/revoke']);

function mismatch(ctx: Context, where: string, error: z.ZodError): void {
  const details = error.issues.slice(0, 20).map((i) => ({ path: i.path.map(String).join('.') || '(root)', message: i.message }));
  logger.error({ where, details }, 'response does not match its declared schema');
  ctx.status = 500;
  ctx.type = 'json';
  ctx.body = {
    error: {
      code: 'response_schema_mismatch',
      message: `${where}: the answer does not match its declared response schema`,
      details,
      request_id: String(ctx.state.requestId ?? ''),
    },
  };
}

/** What the client receives: the JSON text of the body, parsed back. */
function asJson(body: unknown): unknown {
  return JSON.parse(JSON.stringify(body));
}

function isJsonBody(ctx: Context): boolean {
  const body: unknown = ctx.body;
  return body !== null && typeof body === 'object' && !Buffer.isBuffer(body) && typeof (body as { pipe?: unknown }).pipe !== 'function';
}

/** After the handler of a matched route ran without throwing. */
export function checkSuccessAnswer(route: RouteDef, ctx: Context): void {
  const where = `${route.method.toUpperCase()} ${route.path}`;
  const declared = route.response;
  if (route.alsoFor?.includes(ctx.status) && declared && !isRawResponse(declared)) {
    ctx.state.answerChecked = true;
    const r = declared.safeParse(asJson(ctx.body));
    if (!r.success) mismatch(ctx, where, r.error);
    return;
  }
  if (ctx.status >= 300) return; // redirects and the raw routes' own error answers
  if (ctx.status === 204) return;
  if (!declared) {
    mismatch(
      ctx,
      where,
      new z.ZodError([{ code: 'custom', path: [], message: 'the route declares no response schema', input: undefined }]),
    );
    return;
  }
  const type = ctx.response.type || '';
  if (route.alternate && type.startsWith(route.alternate.mediaType)) return;
  if (isRawResponse(declared)) {
    if (!type.startsWith(declared.mediaType)) {
      const message = `declared ${declared.mediaType}, answered ${type || '(none)'}`;
      mismatch(ctx, where, new z.ZodError([{ code: 'custom', path: [], message, input: undefined }]));
    }
    return;
  }
  if (!isJsonBody(ctx)) {
    mismatch(ctx, where, new z.ZodError([{ code: 'custom', path: [], message: 'declared a JSON body, answered none', input: undefined }]));
    return;
  }
  const r = declared.safeParse(asJson(ctx.body));
  if (!r.success) mismatch(ctx, where, r.error);
}

/** Outermost middleware (test app): every JSON error answer has the documented shape. */
export async function checkErrorAnswers(ctx: Context, next: Next): Promise<void> {
  await next();
  if (ctx.status < 400 || !isJsonBody(ctx)) return;
  const body = ctx.body as { error?: { code?: unknown } };
  if (body.error && typeof body.error === 'object' && body.error.code === 'response_schema_mismatch') return;
  if (ctx.state.answerChecked) return;
  // The OAuth endpoints answer RFC 6749 errors; what the router refuses before them (413, 415) has our shape.
  const schema = OAUTH_RFC6749_PATHS.has(ctx.path) ? z.union([oauthErrorSchema, errorSchema]) : errorSchema;
  const r = schema.safeParse(asJson(ctx.body));
  if (!r.success) mismatch(ctx, `${ctx.method} ${ctx.path} (error ${ctx.status})`, r.error);
}
