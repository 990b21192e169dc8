import { randomBytes } from 'node:crypto';
import type { Context } from 'koa';
import type { FormRow } from '../../../services/forms/forms';
import { embedBridge, frameAncestors } from '../embed/bridge';
import { escapeHtml as e, page } from '../../../core/html';
import type { FieldState } from './fields-html';
import type { PageView } from '../../../services/forms/public-page';
import type { QuizScore } from '../../../domain/quiz';
import { onePageHtml, stepsHtml } from './steps-html';
import { FORM_SCRIPT } from './script';
import { formStyles } from './styles';
import { routingTargets, type Routing } from '../../../domain/routing';
import type { SubmitResult } from '../../../services/forms/submit';
import { routedBookingUrl } from './routed-step';

export interface PageOptions {
  embed: boolean;
  /** The page's own query string (tracking parameters), posted back with the form. */
  search: string;
  referrer: string | null;
  state?: Partial<FieldState>;
  /** Steps, resume token and the fields the logic asks (services/forms/public-page.ts). */
  view?: PageView;
  /** A message above the answers (the form was busy: send again). */
  notice?: string;
}

/** The URLs a routed submission may be sent to (the no-JS post is redirected there: CSP form-action). */
function routingUrls(form?: FormRow): string[] {
  const r = form?.settings.routing as Routing | null | undefined;
  if (!r) return [];
  return routingTargets(r).flatMap(({ target }) => (target.type === 'url' ? [target.url] : []));
}

/** Query values as single strings. */
export function queryValues(ctx: Context): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(ctx.query)) {
    const s = Array.isArray(v) ? v[0] : v;
    if (typeof s === 'string') out[k] = s;
  }
  return out;
}

/** The form's embed allow-list when the page is embedded, else null (the full page may not be framed). */
function framing(embed: boolean, form?: FormRow): string {
  return embed ? frameAncestors(form?.settings.embed_allowed_origins) : "'none'";
}

/** CSP with a per-response nonce; embeds may be framed by the form's allow-list, the full page not at all. */
function setHeaders(ctx: Context, nonce: string, ancestors: string, redirectUrls: Array<string | null | undefined>): void {
  let formAction = "'self'";
  for (const url of new Set(redirectUrls)) {
    if (!url) continue;
    try {
      formAction += ` ${new URL(url).origin}`;
    } catch {
      // stored URLs were validated on write
    }
  }
  ctx.set(
    'Content-Security-Policy',
    [
      "default-src 'none'",
      `style-src 'nonce-${nonce}'`,
      `script-src 'nonce-${nonce}'`,
      "connect-src 'self'",
      "img-src 'self' data:",
      "base-uri 'none'",
      `form-action ${formAction}`,
      `frame-ancestors ${ancestors}`,
    ].join('; '),
  );
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Cache-Control', 'no-store');
}

function shell(ctx: Context, title: string, body: string, embed: boolean, form?: FormRow): string {
  const nonce = randomBytes(16).toString('base64');
  setHeaders(ctx, nonce, framing(embed, form), [form?.settings.redirect_url, ...routingUrls(form)]);
  const head = `<link rel="icon" href="data:,"><style nonce="${nonce}">${formStyles(embed)}</style>`;
  return page(title, body.replace('<script>', `<script nonce="${nonce}">`), { head });
}

/** The public form: usable without JavaScript, labels and errors tied to every control. */
export function renderFormPage(ctx: Context, form: FormRow, opts: PageOptions): string {
  const state: FieldState = {
    errors: {},
    query: queryValues(ctx),
    ...opts.state,
    values: { ...(opts.view?.values ?? {}), ...(opts.state?.values ?? {}) },
  };
  const stepped = opts.view && opts.view.count > 1 ? opts.view : undefined;
  const errorCount = Object.keys(state.errors).length;
  const action = `/api/forms/${encodeURIComponent(form.id)}/submissions${opts.search}`;
  const successMessage = form.settings.success_message || 'Thank you! Your answers have been sent.';
  const body = `<main id="main">
${opts.embed ? '' : `<h1>${e(form.title)}</h1>`}
${form.description ? `<p class="description">${e(form.description)}</p>` : ''}
<form id="fss-form" method="post" action="${e(action)}" data-redirect="${e(form.settings.redirect_url ?? '')}"${form.settings.show_score ? ' data-show-score="1"' : ''}>
<div id="form-error" class="form-error" role="alert"${errorCount || opts.notice ? '' : ' hidden'}>${errorCount ? `Please correct ${errorCount} ${errorCount === 1 ? 'answer' : 'answers'}.` : e(opts.notice ?? '')}</div>
${stepped ? '' : '<input type="hidden" name="status" value="completed">'}
<input type="hidden" name="tracking[referrer]" value="${e(opts.referrer ?? '')}">
<div class="hp" aria-hidden="true"><label for="website_url">Leave this field empty</label><input type="text" id="website_url" name="website_url" tabindex="-1" autocomplete="off"></div>
${stepped ? stepsHtml(form, state, stepped) : `${onePageHtml(form, state, opts.view)}\n<button type="submit">${e(form.settings.submit_label || 'Submit')}</button>`}
</form>
<div id="form-success" class="success" role="status" tabindex="-1" hidden><span id="form-success-text">${e(successMessage)}</span><p class="score" id="form-score" hidden></p></div>
</main>
<script>${opts.embed ? embedBridge('form') : ''}${FORM_SCRIPT}</script>`;
  return shell(ctx, form.title, body, opts.embed, form);
}

/** The quiz result line of the thank-you page. */
export const scoreText = (s: QuizScore) => `You scored ${s.score} out of ${s.max}.`;

/**
 * After a no-JS submission without redirect_url; a quiz with `show_score` shows the score. A routed
 * submission shows its message, or the link to its booking step (with the signed prefill token).
 */
export function renderSuccessPage(
  ctx: Context,
  form: FormRow,
  embed: boolean,
  score?: QuizScore | null,
  routing?: SubmitResult['routing'],
): string {
  const msg =
    (routing?.target === 'message' && routing.message) || form.settings.success_message || 'Thank you! Your answers have been sent.';
  const result = score && form.settings.show_score ? `<p class="score" id="form-score">${e(scoreText(score))}</p>` : '';
  const booking =
    routing?.target === 'event_type' && routing.booking_url
      ? `<p><a id="routed-booking" href="${e(routedBookingUrl(routing.booking_url, queryValues(ctx), embed))}">Choose a time to meet</a></p>`
      : '';
  return shell(
    ctx,
    form.title,
    `<main id="main">${embed ? '' : `<h1>${e(form.title)}</h1>`}<div class="success" role="status">${e(msg)}${result}</div>${booking}</main>`,
    embed,
    form,
  );
}

/** Draft, archived or unknown forms, and other dead ends: a friendly page. */
export function renderMessagePage(ctx: Context, title: string, message: string, embed = false, form?: FormRow): string {
  return shell(ctx, title, `<main id="main"><h1>${e(title)}</h1><p>${e(message)}</p></main>`, embed, form);
}
