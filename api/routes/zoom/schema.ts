import { z } from 'zod';
import { zZoomEvent } from '../../../services/zoom/events';

/** Zoom's webhook body (developers.zoom.us/docs/api/webhooks/): `{event, event_ts, payload}`. */
export const zoomEventBody = zZoomEvent.meta({ id: 'ZoomEvent' });

/** The answer: the URL validation's `{plainToken, encryptedToken}`, or what was done with the event. */
export const zoomEventAnswer = z.union([
  z.strictObject({ plainToken: z.string(), encryptedToken: z.string() }),
  z.strictObject({ outcome: z.enum(['ignored', 'signalled', 'recorded', 'purged']) }),
]);
