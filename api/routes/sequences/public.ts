import type { Context } from 'koa';
import twilio from 'twilio';
import type { AppDeps } from '../../deps';
import { ApiError } from '../../../core/errors';
import { defineRoute } from '../../http/route';
import { SENDGRID_SIGNATURE_HEADER, SENDGRID_TIMESTAMP_HEADER, verifySendgridSignature } from '../../../core/sendgrid';
import { applySendgridEvents, zSendgridEvents } from '../../../services/mail/provider-events';
import { applySendgridEngagement } from '../../../services/sequences/engagement-events';
import { unknownLinkPage, unsubscribePage, unsubscribedPage } from '../../pages/unsubscribe';
import {
  isStartMessage,
  isStopMessage,
  recordClick,
  recordOpen,
  recordSmsStatus,
  smsStart,
  smsStop,
  unsubscribeByToken,
  unsubscribeTarget,
} from '../../../services/sequences/tracking';
import { clickParams, oneClickBody, tokenParams, twilioForm } from './schema';

const tags = ['Sequences (public)'];
const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

/** What the tracking heuristics look at (domain/engagement.ts). */
const seen = (ctx: Context) => ({ userAgent: ctx.get('user-agent'), ip: ctx.ip || null, method: ctx.method });

function html(ctx: Context, status: number, body: string): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Cache-Control', 'no-store');
  ctx.body = body;
}

/** Twilio signs every webhook with the auth token over the full URL and the POST parameters. */
function checkTwilio(ctx: Context, deps: AppDeps, params: Record<string, string>): void {
  const token = deps.config.TWILIO_AUTH_TOKEN;
  if (!token) throw new ApiError(403, 'forbidden', 'Twilio is not configured');
  const url = `${deps.config.baseUrl}${ctx.originalUrl}`;
  if (!twilio.validateRequest(token, ctx.get('x-twilio-signature'), url, params)) {
    throw new ApiError(403, 'forbidden', 'Invalid Twilio signature');
  }
}

export const publicSequenceRoutes = [
  defineRoute({
    method: 'get',
    path: '/u/:token',
    auth: 'public',
    rateLimit: 'pages',
    tags,
    raw: true,
    summary: 'One-click unsubscribe page',
    params: tokenParams,
    response: { mediaType: 'text/html', description: 'The unsubscribe page (a 404 page for an unknown link)' },
    handler: async ({ ctx, deps, params }) => {
      const t = await unsubscribeTarget(deps, { token: params.token });
      if (!t) return html(ctx, 404, unknownLinkPage());
      html(ctx, 200, unsubscribePage(params.token, t.maskedEmail, t.unsubscribed));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/u/:token',
    auth: 'public',
    rateLimit: 'pages',
    tags,
    raw: true,
    accepts: ['form'],
    summary: 'Unsubscribe (RFC 8058 one-click POST, also used by the page)',
    params: tokenParams,
    body: oneClickBody,
    response: { mediaType: 'text/html', description: 'The confirmation page (a 404 page for an unknown link)' },
    handler: async ({ ctx, deps, params }) => {
      if (!(await unsubscribeByToken(deps, { token: params.token }))) return html(ctx, 404, unknownLinkPage());
      const t = await unsubscribeTarget(deps, { token: params.token });
      html(ctx, 200, unsubscribedPage(t?.maskedEmail ?? ''));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/t/o/:token',
    auth: 'public',
    rateLimit: 'pages',
    tags,
    raw: true,
    summary: 'Open-tracking pixel',
    params: tokenParams,
    response: { mediaType: 'image/gif', description: 'A 1×1 transparent GIF' },
    handler: async ({ ctx, deps, params }) => {
      await recordOpen(deps, { token: params.token, seen: seen(ctx) });
      ctx.status = 200;
      ctx.type = 'image/gif';
      ctx.set('Cache-Control', 'no-store, private');
      ctx.body = PIXEL;
    },
  }),
  defineRoute({
    method: 'get',
    path: '/t/c/:token/:index',
    auth: 'public',
    rateLimit: 'pages',
    tags,
    raw: true,
    summary: 'Click-tracking redirect to a link of the message',
    params: clickParams,
    response: { mediaType: 'text/html', status: 302, description: 'A redirect to the link (Location header)' },
    handler: async ({ ctx, deps, params }) => {
      const url = await recordClick(deps, { token: params.token, index: params.index, seen: seen(ctx) });
      if (!url) return html(ctx, 404, unknownLinkPage());
      ctx.set('Cache-Control', 'no-store');
      ctx.redirect(url);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/hooks/email/sendgrid',
    auth: 'public',
    tags,
    rawBody: true,
    status: 204,
    summary: "SendGrid's signed Event Webhook (ECDSA signature checked): delivered, bounce, spamreport, open, click, unsubscribe",
    body: zSendgridEvents,
    handler: async ({ ctx, deps, body }) => {
      const key = deps.config.SENDGRID_WEBHOOK_PUBLIC_KEY;
      const raw = (ctx.request as unknown as { rawBody?: string }).rawBody ?? '';
      const ok = !!key && verifySendgridSignature(key, ctx.get(SENDGRID_SIGNATURE_HEADER), ctx.get(SENDGRID_TIMESTAMP_HEADER), raw);
      if (!ok) throw new ApiError(401, 'invalid_token', 'Missing or invalid SendGrid Event Webhook signature');
      // What came back is mail's; opens and clicks are the sequences' engagement.
      await applySendgridEvents(deps, { events: body });
      await applySendgridEngagement(deps, { events: body });
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/hooks/twilio/status',
    auth: 'public',
    tags,
    raw: true,
    accepts: ['form'],
    status: 204,
    summary: 'Twilio message status callback (signature checked)',
    body: twilioForm,
    handler: async ({ ctx, deps, body }) => {
      checkTwilio(ctx, deps, body);
      if (body.MessageSid && body.MessageStatus)
        await recordSmsStatus(deps, { messageSid: body.MessageSid, status: body.MessageStatus, errorCode: body.ErrorCode });
      ctx.status = 204;
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/hooks/twilio/inbound',
    auth: 'public',
    tags,
    raw: true,
    accepts: ['form'],
    summary: 'Twilio inbound SMS: STOP unsubscribes the sender from SMS, START undoes its own STOP (signature checked)',
    response: { mediaType: 'text/xml', description: 'An empty TwiML <Response/>' },
    body: twilioForm,
    handler: async ({ ctx, deps, body }) => {
      checkTwilio(ctx, deps, body);
      if (body.From && body.To && isStopMessage(body.Body ?? '', body.OptOutType)) await smsStop(deps, { from: body.From, to: body.To });
      else if (body.From && body.To && isStartMessage(body.Body ?? '', body.OptOutType))
        await smsStart(deps, { from: body.From, to: body.To });
      ctx.status = 200;
      ctx.type = 'text/xml';
      ctx.body = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>';
    },
  }),
];
