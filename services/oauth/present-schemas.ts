import { z } from 'zod';
import { zId, zIsoTime } from '../envelope';

/** Answer schemas of OAuth apps, the marketplace and the token endpoint: the shapes of the presenters. */

const url = z.string();
const appFields = {
  name: z.string(),
  description: z.string(),
  short_description: z.string().nullable(),
  website_url: url,
  privacy_policy_url: url.nullable(),
  terms_url: url.nullable(),
  documentation_url: url.nullable(),
  category: z.string().nullable(),
  scopes: z.array(z.string()),
  screenshots: z.array(url),
};

export const zApp = z
  .strictObject({
    id: zId,
    ...appFields,
    redirect_uris: z.array(url),
    icon: z.strictObject({ width: z.number().int(), height: z.number().int(), bytes: z.number().int() }).nullable(),
    icon_url: url.nullable(),
    client_id: z.string(),
    status: z.string(),
    review_stage: z.string().nullable(),
    review_round: z.number().int(),
    listed: z.boolean(),
    installs: z.number().int(),
    submitted_at: zIsoTime.nullable(),
    approved_at: zIsoTime.nullable(),
    created_at: zIsoTime,
    updated_at: zIsoTime,
  })
  .meta({ id: 'App' });

export const zAppWithSecret = zApp
  .extend({ client_secret: z.string().meta({ description: 'Shown in this response only' }) })
  .meta({ id: 'AppWithSecret' });

export const zReviewDecision = z
  .strictObject({
    app_id: zId,
    round: z.number().int(),
    stage: z.string(),
    stage_outcome: z.enum(['approve', 'request_changes', 'reject']),
    notes: z.string().nullable(),
  })
  .meta({ id: 'ReviewDecision' });

export const zListing = z
  .strictObject({
    id: zId,
    ...appFields,
    icon_url: url.nullable(),
    installs: z.number().int(),
    rating: z.strictObject({ average: z.number().nullable(), count: z.number().int() }),
    approved_at: zIsoTime,
  })
  .meta({ id: 'MarketplaceApp' });

export const zRating = z
  .strictObject({
    id: zId,
    app_id: zId,
    rating: z.number().int().min(1).max(5),
    title: z.string().nullable(),
    body: z.string().nullable(),
    author_name: z.string().nullable(),
    created_at: zIsoTime,
    updated_at: zIsoTime,
  })
  .meta({ id: 'AppReview' });

export const zInstalledApp = z
  .strictObject({ app_id: zId, name: z.string(), website_url: url, scopes: z.array(z.string()), installed_at: zIsoTime })
  .meta({ id: 'InstalledApp' });

/** RFC 6749 §5.1 */
export const zTokenResponse = z
  .strictObject({
    access_token: z.string(),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int(),
    refresh_token: z.string().optional(),
    scope: z.string().optional(),
  })
  .meta({ id: 'OAuthTokenResponse' });
