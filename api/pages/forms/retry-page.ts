import type { Context } from 'koa';
import { escapeHtml as e, page } from '../../../core/html';
import type { ApiError } from '../../../core/errors';

/** Posted fields as (name, value) pairs in the form-encoded naming: `fields[email]`, `tracking[referrer]`, repeated names for lists. */
export function postedPairs(value: unknown, name = ''): Array<[string, string]> {
  if (Array.isArray(value)) return value.flatMap((v) => postedPairs(v, name));
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => postedPairs(v, name ? `${name}[${k}]` : k));
  }
  return value === undefined || value === null ? [] : [[name, String(value)]];
}

/**
 * The no-JS form post that met an unreachable database (DATABASE_BUDGET_MS passed): the save was
 * not confirmed (a statement sent before the stall may still complete after it; then sending again
 * stores a second submission, as a double click would). Every answer is kept in the page, so one button sends them all
 * again to the same address. Needs no database (the form itself could not be read either).
 */
export function renderRetryPage(ctx: Context, rawBody: unknown, error: ApiError): void {
  const inputs = postedPairs(rawBody)
    .map(([n, v]) => `<input type="hidden" name="${e(n)}" value="${e(v)}">`)
    .join('\n');
  const wait = error.headers?.['Retry-After'] ?? '5';
  ctx.status = 503;
  ctx.set(error.headers ?? {});
  ctx.set('Cache-Control', 'no-store');
  ctx.type = 'text/html';
  ctx.body = page(
    'Please try again',
    `<main id="main"><h1>Your answers were not sent yet</h1>
<p role="alert">We could not confirm that they were saved. They are all kept on this page: please send them again in ${e(wait)} seconds.</p>
<form method="post" action="${e(ctx.originalUrl)}">
${inputs}
<button type="submit">Send my answers again</button>
</form></main>`,
  );
}
