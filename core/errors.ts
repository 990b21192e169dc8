/** Stable error ids (DESIGN.md §3 "Errors"). Match on `code`, never on message text. */
export type ErrorCode =
  | 'invalid_request'
  | 'validation_failed'
  | 'invalid_token'
  | 'token_expired'
  | 'insufficient_scope'
  | 'dashboard_only'
  | 'forbidden'
  | 'not_found'
  | 'slot_unavailable'
  | 'slot_not_offered'
  | 'conflict'
  | 'invalid_transition'
  | 'unsubscribed_by_contact'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'method_not_allowed'
  | 'internal_error'
  | 'service_unavailable'
  | 'response_schema_mismatch';

export interface ErrorDetail {
  path: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, details?: ErrorDetail[]) => new ApiError(400, 'invalid_request', message, details);
export const validationFailed = (details: ErrorDetail[], message = 'The request did not pass validation') =>
  new ApiError(400, 'validation_failed', message, details);
export const notFound = (what = 'Resource') => new ApiError(404, 'not_found', `${what} not found`);
export const conflict = (message: string, code: ErrorCode = 'conflict') => new ApiError(409, code, message);
export const unauthorized = (message = 'Missing or invalid credential', code: ErrorCode = 'invalid_token') =>
  new ApiError(401, code, message, undefined, { 'WWW-Authenticate': `Bearer error="invalid_token"` });
export const insufficientScope = (scope: string) =>
  new ApiError(403, 'insufficient_scope', `This credential lacks the required scope: ${scope}`, undefined, {
    'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${scope}"`,
  });
export const roleForbidden = (role: string, allowed: readonly string[]) =>
  new ApiError(403, 'forbidden', `This endpoint is for the roles ${allowed.join(', ')}; yours is ${role}`);
export const dashboardOnly = () => new ApiError(403, 'dashboard_only', 'This endpoint is available to dashboard sessions only');
/** A public endpoint called from a server with an API key of another team than the form's or page's (docs/getting-started.md). */
export const keyOfAnotherTeam = () =>
  new ApiError(
    403,
    'forbidden',
    "This API key belongs to another team than the form's or booking page's; send your own team's key, or none",
  );
/** A dependency (PostgreSQL) did not answer within its budget, or the process is at its bound of requests: try again later. */
export const serviceUnavailable = (message: string, retryAfterSeconds = 5) =>
  new ApiError(503, 'service_unavailable', message, undefined, { 'Retry-After': String(retryAfterSeconds) });
/** What a request that met an unreachable database is told (the error middleware and the no-JS form page). */
export const databaseUnavailable = () =>
  serviceUnavailable('The database did not answer in time; nothing was saved. Try again in a few seconds');
/** What a request whose transaction met a concurrent one (a deadlock) is told: nothing was saved. */
export const transactionConflict = () =>
  serviceUnavailable('The request met a concurrent change and was rolled back; nothing was saved. Try again', 1);
