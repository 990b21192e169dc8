import { z } from 'zod';
import { zZoomEvent } from '../../../services/meeting-followup/zoom-events';

/** Zoom's webhook body (developers.zoom.us/docs/api/webhooks/): `{event, event_ts, payload}`. */
export const zoomEventBody = zZoomEvent.meta({ id: 'ZoomEvent' });

/** The answer: the URL validation's `{plainToken, encryptedToken}`, or what was done with the event. */
export const zoomEventAnswer = z.union([
  z.strictObject({ plainToken: z.string(), encryptedToken: z.string() }),
  z.strictObject({ outcome: z.enum(['ignored', 'signalled', 'recorded', 'purged']) }),
]);

/** Zoom's redirect back: `code` and `state` (Zoom's page may also come back without a code, when the host declined). */
export const zoomCallbackQuery = z.object({
  code: z.string().max(2000).optional(),
  state: z.string().max(500).optional(),
});

export const zoomAuthorizeAnswer = z.strictObject({ data: z.strictObject({ authorize_url: z.string() }) });

export const zoomConnectionAnswer = z.strictObject({
  data: z.strictObject({
    id: z.string(),
    zoom_user_id: z.string(),
    zoom_account_id: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
  }),
});
