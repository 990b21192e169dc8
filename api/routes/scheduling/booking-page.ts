import { randomToken } from '../../../core/crypto';
import { renderBookingPage, renderNotFound } from '../../pages/booking/render';
import { defineRoute } from '../../http/route';
import { publishedPageBySlug } from '../../../services/scheduling/pages';
import { bookingPageParams } from './schema';

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
    response: { mediaType: 'text/html', description: 'The booking page (HTML); 404 page when no published page has this slug' },
    handler: async ({ params, ctx, deps }) => {
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
      ctx.status = 200;
      ctx.body = renderBookingPage(
        {
          title: page.title,
          description: page.description,
          confirmationMessage: (page.settings?.confirmation_message as string | undefined) ?? 'Your meeting is booked.',
          eventTypes,
          embed,
        },
        nonce,
      );
    },
  }),
];
