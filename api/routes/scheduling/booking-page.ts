import { randomToken } from '../../../core/crypto';
import { renderBookingPage, renderNotFound } from '../../pages/booking/render';
import { defineRoute } from '../../http/route';
import { publishedPageBySlug } from '../../../services/scheduling/pages';
import { bookingPageParams, bookingPageQuery, routedBookingBody } from './schema';
import { routedPageView } from '../../../services/scheduling/routed-page';
import { book } from '../../../services/scheduling/booking';
import { renderRoutedResult } from '../../pages/booking/routed';
import { ApiError } from '../../../core/errors';
import { serverCallerOf } from '../../http/server-caller';

export const bookingPageRoutes = [
  defineRoute({
    method: 'get',
    path: '/book/:page_slug',
    auth: 'public',
    rateLimit: 'pages',
    tags: ['pages'],
    raw: true,
    summary: 'The public booking widget of a published scheduling page',
    params: bookingPageParams,
    query: bookingPageQuery,
    response: { mediaType: 'text/html', description: 'The booking page (HTML); 404 page when no published page has this slug' },
    handler: async ({ params, query, ctx, deps }) => {
      const nonce = randomToken(16);
      // `?embed=1` (embed.js, or a plain iframe) may be framed by any site; the full page by none.
      const embed = ctx.query.embed === '1';
      ctx.set(
        'Content-Security-Policy',
        `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors ${embed ? '*' : "'none'"}`,
      );
      ctx.type = 'text/html; charset=utf-8';
      const found = await publishedPageBySlug(deps, { slug: params.page_slug });
      if (!found) {
        ctx.status = 404;
        ctx.body = renderNotFound();
        return;
      }
      const { page, eventTypes } = found;
      // Opened from a routed submission: its event type, hosts, name and email (an invalid or expired token: the page as usual).
      const routed = query.prefill ? await routedPageView(deps, { token: query.prefill, eventTypeIds: eventTypes.map((e) => e.id) }) : null;
      ctx.status = 200;
      ctx.body = renderBookingPage(
        {
          title: page.title,
          description: page.description,
          confirmationMessage: (page.settings?.confirmation_message as string | undefined) ?? 'Your meeting is booked.',
          eventTypes,
          embed,
          routed: routed ? { slug: page.slug, view: routed } : null,
        },
        nonce,
      );
    },
  }),
  defineRoute({
    method: 'post',
    path: '/book/:page_slug/routed',
    auth: 'public',
    rateLimit: 'submit',
    rateLimitTarget: ({ body }) => `event_type:${body.event_type_id}`,
    tags: ['pages'],
    raw: true,
    accepts: ['form'],
    summary: "Book a routed submission's time without JavaScript (form post from the booking page opened with a prefill token)",
    params: bookingPageParams,
    body: routedBookingBody,
    examples: {
      request: {
        prefill: 'pf_0f8e2b7c4d1a4e9b8c3f2a1b0c9d8e7f.t3x1k2.AbCdEfGhIjKlMnOpQrStUv',
        event_type_id: '7d0c3b8e-2f4a-4c1e-9a57-3e1f2b6c8d90',
        slot: '2026-03-02T09:00:00.000Z/2026-03-02T09:30:00.000Z',
        name: 'Ada Lovelace',
        email: 'ada@example.com',
      },
    },
    response: { mediaType: 'text/html', description: 'The booked page, or why the time could not be booked (HTML)' },
    handler: async ({ params, body, ctx, deps }) => {
      ctx.type = 'text/html; charset=utf-8';
      const [start, end] = body.slot.split('/').map((t) => Date.parse(t));
      const back = `/book/${encodeURIComponent(params.page_slug)}?event_type=${body.event_type_id}&prefill=${body.prefill}`;
      try {
        const { meeting } = await book(deps, {
          eventTypeId: body.event_type_id,
          start,
          end,
          exactDuration: true,
          attendeeEmail: body.email,
          attendeeName: body.name,
          timezone: 'UTC',
          guests: [],
          fieldValues: {},
          routingToken: body.prefill,
          callerTeamId: serverCallerOf(ctx)?.teamId,
        });
        ctx.status = 201;
        const at = new Date(meeting.start_time).toISOString();
        ctx.body = renderRoutedResult({
          ok: true,
          title: 'Booked',
          message: `Your meeting is booked for ${at.slice(0, 10)} ${at.slice(11, 16)} UTC.`,
        });
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        ctx.status = err.status;
        ctx.body = renderRoutedResult({ ok: false, title: 'This time could not be booked', message: err.message, back });
      }
    },
  }),
];
