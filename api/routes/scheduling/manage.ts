import type { Context } from 'koa';
import { DateTime } from 'luxon';
import { ApiError } from '../../../core/errors';
import { actOnLink, openLink, rescheduleSlots, type OpenedLink } from '../../../services/scheduling/self-service';
import { defineRoute } from '../../http/route';
import { doneMessagePage, linkNotFoundPage, MANAGE_CSP, managePage, type ManageView } from '../../pages/booking/manage';
import type { AppDeps } from '../../deps';
import { manageBody, manageParams as params, manageQuery } from './schema';

const tags = ['pages'];

function html(ctx: Context, status: number, body: string): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Content-Security-Policy', MANAGE_CSP);
  ctx.set('Referrer-Policy', 'no-referrer'); // the token is in the URL
  ctx.body = body;
}

async function view(deps: AppDeps, token: string, link: OpenedLink, date: string | undefined, error?: string): Promise<ManageView> {
  const m = link.meeting;
  const v: ManageView = {
    token,
    purpose: link.purpose,
    title: m.title,
    hostName: link.hostName,
    attendeeName: m.attendee_name,
    start: new Date(m.start_time),
    end: new Date(m.end_time),
    timezone: m.timezone,
    meetingLink: m.meeting_link,
    closedReason: link.closedReason,
    error,
  };
  if (link.purpose === 'reschedule' && !link.closedReason) {
    const today = DateTime.now().setZone(m.timezone).toISODate()!;
    const own = DateTime.fromJSDate(v.start, { zone: m.timezone }).toISODate()!;
    v.date = date && DateTime.fromISO(date).isValid && date >= today ? date : own >= today ? own : today;
    v.slots = await rescheduleSlots(deps, { meeting: m, date: v.date });
  }
  return v;
}

const DONE: Record<string, [string, string]> = {
  cancel: ['Meeting cancelled', 'The meeting is cancelled. Everyone invited gets a cancellation.'],
  decline: ['Request declined', 'The request is declined; the attendee is told.'],
  confirm: ['Booking confirmed', 'The booking is confirmed; everyone gets the invitation.'],
  reschedule: ['Meeting moved', 'The meeting has moved. Everyone gets the updated invitation.'],
};

export const manageRoutes = [
  defineRoute({
    method: 'get',
    path: '/booking/:token',
    auth: 'public',
    rateLimit: 'pages',
    tags,
    raw: true,
    response: {
      mediaType: 'text/html',
      description: 'The manage page of a booking (HTML); 404 page for an unknown link, 409 when it can no longer act',
    },
    summary: 'Attendee cancel/reschedule and host confirm/decline page of a signed link',
    params,
    query: manageQuery,
    handler: async ({ ctx, deps, params: p, query }) => {
      const link = await openLink(deps, { token: p.token });
      if (!link) return html(ctx, 404, linkNotFoundPage());
      html(ctx, 200, managePage(await view(deps, p.token, link, query.date)));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/booking/:token',
    auth: 'public',
    tags,
    raw: true,
    response: {
      mediaType: 'text/html',
      description: 'The manage page of a booking (HTML); 404 page for an unknown link, 409 when it can no longer act',
    },
    accepts: ['form'],
    summary: "Carry out a signed link's action (form post from its page)",
    params,
    body: manageBody,
    handler: async ({ ctx, deps, params: p, body }) => {
      const link = await openLink(deps, { token: p.token });
      if (!link) return html(ctx, 404, linkNotFoundPage());
      if (link.closedReason) return html(ctx, 409, managePage(await view(deps, p.token, link, undefined)));
      if (link.purpose === 'reschedule' && !body.start) {
        return html(ctx, 400, managePage(await view(deps, p.token, link, undefined, 'Pick one of the times below.')));
      }
      try {
        const action =
          link.purpose === 'reschedule'
            ? { purpose: 'reschedule' as const, start: Date.parse(body.start!) }
            : link.purpose === 'confirm'
              ? { purpose: 'confirm' as const }
              : { purpose: link.purpose, reason: body.reason };
        await actOnLink(deps, { link, action });
      } catch (err) {
        if (!(err instanceof ApiError) || err.status >= 500) throw err;
        const date = body.start ? DateTime.fromISO(body.start, { zone: link.meeting.timezone }).toISODate()! : undefined;
        const again = (await openLink(deps, { token: p.token })) ?? link;
        return html(ctx, err.status, managePage(await view(deps, p.token, again, date, `${err.message}. Please pick another time.`)));
      }
      const [title, message] = DONE[link.purpose];
      html(ctx, 200, doneMessagePage(title, message));
    },
  }),
];
