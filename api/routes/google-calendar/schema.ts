import { z } from 'zod';

/** Google's redirect back: `code` and `state`, or `error` (the host declined) (developers.google.com/identity/protocols/oauth2/web-server). */
export const googleCallbackQuery = z.object({
  code: z.string().max(2000).optional(),
  state: z.string().max(600).optional(),
  error: z.string().max(200).optional(),
  scope: z.string().max(2000).optional(),
});

export const googleAuthorizeAnswer = z.strictObject({ data: z.strictObject({ authorize_url: z.string() }) });

/** What was done with a push notification. */
export const googlePushAnswer = z.strictObject({ outcome: z.enum(['ignored', 'signalled']) });
