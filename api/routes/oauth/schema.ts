import { z } from 'zod';
import { ALL_SCOPES } from '../../../core/scopes';
import { APP_CATEGORIES, redirectUriProblem } from '../../../domain/app-checklist';
import { paginationQuery } from '../../../services/pagination';
import { dataOf, listOf } from '../../../services/envelope';
import { zText, zUuid } from '../../../core/validate';
import {
  zApp,
  zAppWithSecret,
  zInstalledApp,
  zListing,
  zRating,
  zReviewDecision,
  zTokenResponse,
} from '../../../services/oauth/present-schemas';

/** Request and answer schemas of the OAuth apps, marketplace and OAuth flow routes. */

const zHttpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(2000);
const zHttpsUrl = z.url({ protocol: /^https$/, error: 'must be an https URL' }).max(2000);
const zRedirectUri = z
  .string()
  .max(2000)
  .superRefine((v, c) => {
    const p = redirectUriProblem(v);
    if (p) c.addIssue({ code: 'custom', message: `redirect URI ${p}` });
  })
  .meta({ example: 'https://app.example.com/oauth/callback' });

const fields = {
  name: zText(100).trim().min(1),
  description: zText(2000).trim().min(1),
  short_description: zText(500).trim().nullable(),
  website_url: zHttpUrl,
  privacy_policy_url: zHttpUrl.nullable(),
  terms_url: zHttpUrl.nullable(),
  documentation_url: zHttpUrl.nullable(),
  category: z.enum(APP_CATEGORIES).nullable(),
  redirect_uris: z.array(zRedirectUri).min(1).max(20),
  scopes: z.array(z.enum(ALL_SCOPES)).min(1),
  screenshots: z.array(zHttpsUrl).max(10),
  icon: z.string().max(1_000_000).nullable().meta({ description: 'A PNG icon, base64 (optionally as a data: URL)' }),
};

export const appCreateBody = z.strictObject({
  ...fields,
  short_description: fields.short_description.optional(),
  privacy_policy_url: fields.privacy_policy_url.optional(),
  terms_url: fields.terms_url.optional(),
  documentation_url: fields.documentation_url.optional(),
  category: fields.category.optional(),
  screenshots: fields.screenshots.optional(),
  icon: fields.icon.optional(),
});
export const appPatchBody = z.strictObject(
  Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v.optional()])) as {
    [K in keyof typeof fields]: z.ZodOptional<(typeof fields)[K]>;
  },
);
export const decisionBody = z.strictObject({
  stage_outcome: z.enum(['approve', 'request_changes', 'reject']),
  notes: zText(5000).nullable().optional(),
});
export const listQuery = z.object({ ...paginationQuery });
export const marketplaceQuery = z.object({ ...paginationQuery, category: z.enum(APP_CATEGORIES).optional(), q: zText(200).optional() });
export const appIdParams = z.strictObject({ app_id: zUuid });
export const reviewBody = z.strictObject({
  app_id: zUuid,
  rating: z.number().int().min(1).max(5),
  title: zText(200).nullable().optional(),
  body: zText(5000).nullable().optional(),
});

/** Form fields are checked by the OAuth handlers themselves, so errors come back in RFC 6749 form. */
export const formBody = z.record(z.string(), z.unknown());

export const appAnswer = dataOf(zApp);
export const appList = listOf(zApp);
export const appWithSecretAnswer = dataOf(zAppWithSecret);
export const decisionAnswer = dataOf(zReviewDecision);
export const listingAnswer = dataOf(zListing);
export const listingList = listOf(zListing);
export const reviewAnswer = dataOf(zRating);
export const reviewList = listOf(zRating);
export const installedAppList = listOf(zInstalledApp);
export const tokenAnswer = zTokenResponse;

const field = (description: string) => z.string().optional().meta({ description });

/** The token request (RFC 6749 §4.1.3, §6); the handler checks it and answers RFC 6749 errors. */
export const tokenBody = z.looseObject({
  grant_type: z.string().optional().meta({ description: '`authorization_code` or `refresh_token`' }),
  code: field('authorization_code: the code from the redirect'),
  redirect_uri: field('authorization_code: the redirect URI of the authorize request'),
  code_verifier: field('authorization_code: the PKCE verifier (S256)'),
  refresh_token: field('refresh_token: the refresh token (rotates on every use)'),
  client_id: field('client credentials, unless sent with HTTP Basic'),
  client_secret: field('client credentials, unless sent with HTTP Basic'),
  scope: field('space-separated scopes'),
});

export const revokeBody = z.looseObject({
  token: field('the access or refresh token to revoke'),
  token_type_hint: field('`access_token` or `refresh_token`'),
  client_id: field('client credentials, unless sent with HTTP Basic'),
  client_secret: field('client credentials, unless sent with HTTP Basic'),
});
