import type { Context, Next } from 'koa';
import { randomUUID } from 'node:crypto';
import { logger } from '../../core/logger';
import { httpDuration, httpRequests } from '../../core/metrics';
import { ApiError, databaseUnavailable, transactionConflict, type ErrorCode } from '../../core/errors';
import { isDatabaseUnavailable, isTransactionConflict } from '../../db/unavailable';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Sets X-Request-Id and turns every thrown error into the documented error body. */
export async function requestIdAndErrors(ctx: Context, next: Next): Promise<void> {
  const incoming = ctx.get('x-request-id');
  const requestId = REQUEST_ID.test(incoming) ? incoming : randomUUID();
  ctx.state.requestId = requestId;
  ctx.set('X-Request-Id', requestId);
  const started = process.hrtime.bigint();
  try {
    await next();
    if (ctx.status === 404 && ctx.body === undefined) {
      throw new ApiError(404, 'not_found', `No route for ${ctx.method} ${ctx.path}`);
    }
  } catch (err) {
    const e = toApiError(err);
    // The route template, never the path: a path can hold a booking, reset or feed token.
    if (e.status === 503)
      logger.warn({ err: String(err), requestId, method: ctx.method, route: matchedRoute(ctx) }, 'request refused: unavailable');
    else if (e.status >= 500) logger.error({ err, requestId, method: ctx.method, route: matchedRoute(ctx) }, 'request failed');
    ctx.status = e.status;
    if (e.headers) ctx.set(e.headers);
    ctx.body =
      ctx.state.errorShape === 'oauth'
        ? {
            error: oauthErrorCode(e),
            error_description: e.details?.length ? `${e.message}: ${e.details[0].path} ${e.details[0].message}` : e.message,
          }
        : { error: { code: e.code, message: e.message, ...(e.details ? { details: e.details } : {}), request_id: requestId } };
  }
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  // Metrics by route template, never the path (core/metrics.ts).
  const labels = { method: ctx.method, route: matchedRoute(ctx), status: String(ctx.status) };
  httpRequests.inc(labels);
  httpDuration.observe(labels, ms / 1000);
  // Access log: never headers or bodies, so no credential or personal data reaches the log.
  if (logger.isLevelEnabled('info')) {
    // The route template, not the path: secret path segments (feed tokens, unsubscribe tokens) stay out.
    logger.info({ requestId, method: ctx.method, route: matchedRoute(ctx), status: ctx.status, ms: Math.round(ms * 10) / 10 }, 'request');
  }
}

function matchedRoute(ctx: Context): string {
  return (ctx as { _matchedRoute?: string })._matchedRoute ?? '(unmatched)';
}

/** RFC 6749 §5.2 `error` for errors raised before an OAuth handler runs (bad body, rate limit, crash). */
function oauthErrorCode(e: ApiError): string {
  if (e.status >= 500) return 'server_error';
  if (e.status === 429) return 'rate_limited';
  return 'invalid_request';
}

function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  // PostgreSQL away or past the budget (DATABASE_BUDGET_MS): a 503 the client may retry, not a 500.
  if (isDatabaseUnavailable(err)) return databaseUnavailable();
  // A deadlock or serialization failure rolled the transaction back: a retry may succeed at once.
  if (isTransactionConflict(err)) return transactionConflict();
  const e = err as { status?: number; statusCode?: number; type?: string; message?: string; expose?: boolean };
  const status = e?.status ?? e?.statusCode;
  if (status === 413 || e?.type === 'entity.too.large') {
    return new ApiError(413, 'payload_too_large', 'The request body is larger than 1 MB');
  }
  if (status === 415) return new ApiError(415, 'unsupported_media_type', 'Unsupported content type');
  if (status === 405) return new ApiError(405, 'method_not_allowed', e.message ?? 'Method not allowed');
  if (status && status >= 400 && status < 500) {
    const parse = e.type === 'entity.parse.failed' || /JSON|parse/i.test(String(e.message));
    const code: ErrorCode = 'invalid_request';
    return new ApiError(status === 400 || parse ? 400 : status, code, parse ? 'The request body is not valid JSON' : 'Bad request');
  }
  return new ApiError(500, 'internal_error', 'Something went wrong on our side; it has been logged');
}
