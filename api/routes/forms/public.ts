import type { Context } from 'koa';
import type { AppDeps } from '../../deps';
import { ApiError, keyOfAnotherTeam, notFound } from '../../../core/errors';
import { serverCallerOf } from '../../http/server-caller';
import { defineRoute } from '../../http/route';
import { queryValues, renderFormPage, renderMessagePage, renderSuccessPage } from '../../pages/forms/page';
import { renderRetryPage } from '../../pages/forms/retry-page';
import { findPublishedFormCached, publishedFormPlan } from '../../../services/forms/form-cache';
import { findPublishedForm, type FormRow } from '../../../services/forms/forms';
import type { PublicSubmissionInput } from '../../../services/forms/schemas';
import { pageView, withHiddenFromQuery, type PageView } from '../../../services/forms/public-page';
import { submitPublic } from '../../../services/forms/submit';
import { buildMetadata, recordFormView } from '../../../services/forms/tracking';
import { idOrSlugParams, publicSubmissionBody, submissionReceipt } from './schema';

const tags = ['public forms'];

const isEmbed = (ctx: Context) => ctx.query.embed === '1';
/** The no-JS page posts form-encoded and gets HTML back; the script and API callers send JSON. */
const isFormPost = (ctx: Context) => ctx.request.is('application/x-www-form-urlencoded') === 'application/x-www-form-urlencoded';
const search = (ctx: Context) => (ctx.querystring ? `?${ctx.querystring}` : '');

function notFoundPage(ctx: Context): void {
  ctx.status = 404;
  ctx.body = renderMessagePage(ctx, 'Form not available', 'This form does not exist or is not open for answers right now.', isEmbed(ctx));
}

/** Who sent the visitor: embed.js passes the host page's URL as `referrer`; otherwise the Referer header. */
function pageReferrer(ctx: Context): string | null {
  const fromEmbed = isEmbed(ctx) ? ctx.query.referrer : undefined;
  const ref = (typeof fromEmbed === 'string' && fromEmbed) || ctx.get('referer');
  return ref ? ref.slice(0, 2048) : null;
}

function recordView(deps: AppDeps, form: FormRow, ctx: Context): Promise<void> {
  const utm = ctx.query.utm_source;
  return recordFormView(deps, { form, userAgent: ctx.get('user-agent'), utmSource: typeof utm === 'string' ? utm : undefined });
}

/** The page of a step: the page's own query string with the resume token and the step number. */
function stepUrl(ctx: Context, form: FormRow, submissionId: string, step: number): string {
  const q = new URLSearchParams(ctx.querystring);
  q.set('resume', submissionId);
  q.set('step', String(step));
  return `/f/${encodeURIComponent(form.slug || form.id)}?${q.toString()}`;
}

/** The view to re-render a step after a no-JS validation error: the step that was posted, with its resume token. */
async function errorView(deps: AppDeps, form: FormRow, ctx: Context, body: PublicSubmissionInput): Promise<PageView> {
  const query = { ...queryValues(ctx), step: String(body.step ?? 0), ...(body.submission_id ? { resume: body.submission_id } : {}) };
  return pageView(deps, { form, query });
}

export const publicFormRoutes = [
  defineRoute({
    method: 'get',
    path: '/f/:id_or_slug',
    auth: 'public',
    rateLimit: 'pages',
    raw: true,
    summary: 'The public form page (HTML); tracking parameters in the query string are kept',
    tags,
    params: idOrSlugParams,
    response: { mediaType: 'text/html', description: 'The form page (HTML); a 404 page when the form is not published' },
    handler: async ({ params, ctx, deps }) => {
      const form = await findPublishedForm(deps, { idOrSlug: params.id_or_slug });
      if (!form) return notFoundPage(ctx);
      await recordView(deps, form, ctx);
      const view = await pageView(deps, { form, query: queryValues(ctx) });
      ctx.status = 200;
      ctx.body = renderFormPage(ctx, form, { embed: isEmbed(ctx), search: search(ctx), referrer: pageReferrer(ctx), view });
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/forms/:id_or_slug/submissions',
    auth: 'public',
    rateLimit: 'submit',
    // Per form as the URL names it (id or slug): a form reached by both names gets the limit twice at most.
    rateLimitTarget: ({ params }) => `form:${params.id_or_slug.toLowerCase()}`,
    // The per-form budget scales with the team's plan (api/http/rate-limit.ts PLAN_TARGET_SCALE).
    rateLimitPlan: ({ params, deps }) => publishedFormPlan(deps, { idOrSlug: params.id_or_slug }),
    // A popular form at its budget, or a visitor's address at its own: the no-JS post gets its
    // answers back with a clear message (JSON: the 429).
    onTargetLimited: async ({ params, body, ctx, deps, error, limited }) => {
      const form = await findPublishedFormCached(deps, { idOrSlug: params.id_or_slug });
      if (!isFormPost(ctx) || !form) throw error;
      ctx.set(error.headers ?? {});
      ctx.status = 429;
      const wait = error.headers?.['Retry-After'] ?? '60';
      ctx.body = renderFormPage(ctx, form, {
        embed: isEmbed(ctx),
        search: search(ctx),
        referrer: body.tracking?.referrer ?? null,
        state: { values: body.fields ?? {} },
        notice:
          limited === 'target'
            ? `Many people are answering this form right now, so your answers were not sent yet. They are all still here: please send them again in ${wait} seconds.`
            : `Many answers came from your network in the last minute, so yours were not sent yet. They are all still here: please send them again in ${wait} seconds.`,
        view: await errorView(deps, form, ctx, body),
      });
    },
    // PostgreSQL away past its budget: the no-JS post gets a page that sends the same answers again.
    outagePage: renderRetryPage,
    raw: true,
    summary: 'Submit answers (JSON, or form-encoded from the no-JS page); submission_id continues a partial one',
    tags,
    params: idOrSlugParams,
    body: publicSubmissionBody,
    status: 201,
    // JSON: 201 (200 when a partial submission is continued) with the receipt. The no-JS form post
    // gets the success page (HTML) or a 303 to the form's redirect_url.
    response: submissionReceipt,
    alternate: {
      mediaType: 'text/html',
      description: "A form-encoded post (the no-JS page) gets the success page, or a 303 to the form's redirect_url.",
    },
    conflict: '`invalid_transition`: the submission_id names a submission that is already completed',
    accepts: ['json', 'form'],
    handler: async ({ params, body, ctx, deps }) => {
      const html = isFormPost(ctx);
      // Cached up to 1 s (see form-cache.ts); the write itself re-checks that the form is published.
      const form = await findPublishedFormCached(deps, { idOrSlug: params.id_or_slug });
      if (!form) {
        if (html) return notFoundPage(ctx);
        throw notFound('Form');
      }
      const caller = serverCallerOf(ctx);
      if (caller && caller.teamId !== form.team_id) throw keyOfAnotherTeam();
      try {
        const metadata = buildMetadata({
          query: ctx.query,
          bodyTracking: body.tracking,
          referer: ctx.get('referer'),
          userAgent: caller ? (caller.visitorUserAgent ?? '') : ctx.get('user-agent'),
          country: ctx.get(deps.config.COUNTRY_HEADER),
          visitorIp: caller?.visitorIp,
        });
        body.fields = withHiddenFromQuery(form.fields, body.fields, queryValues(ctx));
        const result = await submitPublic(deps, { form, values: body, metadata, mode: html ? 'form' : 'json' });
        const { id, status, step, last, hidden_fields, score, max_score, routing } = result;
        if (!html) {
          ctx.status = result.created ? 201 : 200;
          ctx.body = {
            data: {
              id,
              status,
              ...(step != null ? { step, last, hidden_fields } : {}),
              ...(score != null ? { score, max_score } : {}),
              ...(routing ? { routing } : {}),
            },
          };
        } else if (routing && routing.target === 'url' && routing.url) {
          // Routed to a URL: the no-JS post goes there, as the script does.
          ctx.status = 303;
          ctx.redirect(routing.url);
          ctx.status = 303;
        } else if (step != null && status === 'partial') {
          // A step of a multi-step form was saved: show the next (or previous) one, resumable by URL.
          ctx.status = 303;
          ctx.redirect(stepUrl(ctx, form, id, step));
          ctx.status = 303;
        } else if (form.settings.redirect_url && result.status === 'completed' && !routing) {
          ctx.status = 303;
          ctx.redirect(form.settings.redirect_url);
          ctx.status = 303;
        } else {
          ctx.status = 200;
          ctx.body = renderSuccessPage(ctx, form, isEmbed(ctx), score != null ? { score, max: max_score ?? 0 } : null, routing);
        }
      } catch (err) {
        if (!html || !(err instanceof ApiError)) throw err;
        ctx.status = err.status;
        if (err.code !== 'validation_failed') {
          ctx.body = renderMessagePage(ctx, 'Your answers were not sent', err.message, isEmbed(ctx), form);
          return;
        }
        const errors: Record<string, string> = {};
        for (const d of err.details ?? []) {
          const m = /^fields\.(.+)$/.exec(d.path);
          if (m) errors[m[1]] = d.message;
        }
        ctx.body = renderFormPage(ctx, form, {
          embed: isEmbed(ctx),
          search: search(ctx),
          referrer: body.tracking?.referrer ?? null,
          state: { values: body.fields ?? {}, errors },
          view: await errorView(deps, form, ctx, body),
        });
      }
    },
  }),
];
