/**
 * Whether an error means PostgreSQL could not be reached or did not answer in time (as opposed to
 * a bad query or a constraint): the request is then answered 503 with Retry-After, not 500.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { name?: string; code?: string; message?: string };
  // knex: no pooled connection within acquireConnectionTimeout.
  if (e.name === 'KnexTimeoutError') return true;
  // pg: 57014 statement_timeout, 57P01-57P03 shutdown / cannot connect now, 53300 too many
  // connections, class 08 connection exceptions.
  if (typeof e.code === 'string' && (/^(57014|57P0[1-3]|53300)$/.test(e.code) || e.code.startsWith('08'))) return true;
  if (e.code === 'ECONNREFUSED' || e.code === 'ECONNRESET' || e.code === 'ETIMEDOUT' || e.code === 'EPIPE') return true;
  // pg's client-side query_timeout, connection timeout and a dropped socket; knex prefixes the
  // driver's message with the statement (`<sql> - Query read timeout`).
  return /(^| - )(Query read timeout|Connection terminated|timeout expired|Client has encountered a connection error)/.test(
    e.message ?? '',
  );
}

/**
 * Whether PostgreSQL rolled the transaction back because it met a concurrent one (40P01
 * deadlock_detected, 40001 serialization_failure): nothing was saved, and the same request may
 * succeed at once. Answered 503 with a short Retry-After, not 500.
 */
export function isTransactionConflict(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const code = (err as { code?: unknown }).code;
  return code === '40P01' || code === '40001';
}
