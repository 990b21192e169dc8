import { z } from 'zod';
import { randomToken } from '../../../core/crypto';
import { renderBookingPage, renderNotFound } from '../../pages/booking/render';
import { defineRoute } from '../../http/route';

export const bookingPageRoutes = [
  defineRoute({
    method: 'get',
    path: '/book/:page_slug',
    auth: 'public',
    rateLimit: 'pages',
    tags: ['pages'],
    raw: true,
    summary: 'The public booking widget of a published scheduling page',
    params: z.strictObject({ page_slug: z.string().min(1).max(100) }),
    handler: async ({ params, ctx, deps }) => {
      const nonce = randomToken(16);
      // `?embed=1` (embed.js, or a plain iframe) may be framed by any site; the full page by none.
      const embed = ctx.query.embed === '1';
      ctx.set(
        'Content-Security-Policy',
        `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors ${embed ? '*' : "'none'"}`,
      );
      ctx.type = 'text/html; charset=utf-8';
      const pageRow = await deps.db('scheduling_pages').where({ slug: params.page_slug, status: 'published' }).first();
      if (!pageRow) {
        ctx.status = 404;
        ctx.body = renderNotFound();
        return;
      }
      const eventTypes = await deps
        .db('event_types')
        .where({ scheduling_page_id: pageRow.id, is_active: true })
        .orderBy([{ column: 'position' }, { column: 'created_at' }]);
      ctx.status = 200;
      ctx.body = renderBookingPage(
        {
          title: pageRow.title,
          description: pageRow.description,
          confirmationMessage: (pageRow.settings?.confirmation_message as string | undefined) ?? 'Your meeting is booked.',
          eventTypes,
          embed,
        },
        nonce,
      );
    },
  }),
];
