import type { Context } from 'koa';
import { ApiError } from '../../../core/errors';
import { checkZoomSignature, zoomUrlValidation } from '../../../core/video/zoom-webhook';
import { handleZoomEvent } from '../../../services/meeting-followup/zoom-events';
import { defineRoute } from '../../http/route';
import { zoomConnectionRoutes } from './connection';
import { zoomEventAnswer, zoomEventBody } from './schema';

const tags = ['Zoom'];

/** Zoom's signature over the exact bytes, checked before anything else (docs/scheduling.md "Zoom"). */
function verify(ctx: Context, secret: string | undefined): string {
  if (!secret) throw new ApiError(403, 'forbidden', 'Zoom is not configured');
  const rawBody = (ctx.request as unknown as { rawBody?: string }).rawBody ?? '';
  const check = checkZoomSignature(secret, { signature: ctx.get('x-zm-signature'), timestamp: ctx.get('x-zm-request-timestamp'), rawBody });
  if (check === 'stale') throw new ApiError(401, 'invalid_token', 'Zoom webhook timestamp is too old or in the future');
  if (check !== 'ok') throw new ApiError(401, 'invalid_token', 'Missing or invalid Zoom webhook signature');
  return secret;
}

export const zoomRoutes = [
  ...zoomConnectionRoutes,
  defineRoute({
    method: 'post',
    path: '/api/hooks/zoom',
    auth: 'public',
    rateLimit: 'pages',
    tags,
    rawBody: true,
    summary:
      "Zoom's event notifications (x-zm-signature checked, stale timestamps refused): endpoint.url_validation, recording.completed, recording.transcript_completed, meeting.deleted, app_deauthorized",
    body: zoomEventBody,
    response: zoomEventAnswer,
    handler: async ({ ctx, deps, body }) => {
      const secret = verify(ctx, deps.config.ZOOM_WEBHOOK_SECRET_TOKEN);
      if (body.event === 'endpoint.url_validation') {
        const plainToken = typeof body.payload.plainToken === 'string' ? body.payload.plainToken : '';
        if (!plainToken) throw new ApiError(400, 'invalid_request', 'payload.plainToken is required');
        return zoomUrlValidation(secret, plainToken);
      }
      return { outcome: await handleZoomEvent(deps, { event: body }) };
    },
  }),
];
