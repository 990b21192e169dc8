import { z } from 'zod';

/**
 * Microsoft's redirect back: `code` and `state`, or `error` and `error_description` (the host declined)
 * (learn.microsoft.com/entra/identity-platform/v2-oauth2-auth-code-flow).
 */
export const microsoftCallbackQuery = z.object({
  code: z.string().max(4000).optional(),
  state: z.string().max(600).optional(),
  error: z.string().max(200).optional(),
  error_description: z.string().max(2000).optional(),
});

export const microsoftAuthorizeAnswer = z.strictObject({ data: z.strictObject({ authorize_url: z.string() }) });

/** Graph's validation request carries `validationToken` (answered in text/plain). */
export const microsoftHookQuery = z.object({ validationToken: z.string().max(1024).optional() });

/** A change or lifecycle notification batch (learn.microsoft.com/graph/change-notifications-delivery-webhooks). */
export const microsoftHookBody = z.strictObject({
  /** Rich notifications' tokens (not asked for: we subscribe without resource data). */
  validationTokens: z.array(z.string().max(10_000)).max(100).optional(),
  value: z
    .array(
      z.looseObject({
        subscriptionId: z.string().max(200).optional(),
        clientState: z.string().max(300).optional(),
        changeType: z.string().max(100).optional(),
        lifecycleEvent: z.string().max(100).optional(),
      }),
    )
    .max(1000)
    .optional(),
});

/** What was done with a notification batch. */
export const microsoftHookAnswer = z.strictObject({ outcome: z.enum(['ignored', 'signalled']) });
