import { z } from 'zod';

/** The documented error body of every endpoint (DESIGN.md §3 "Errors"). */
export const errorSchema = z
  .strictObject({
    error: z.strictObject({
      code: z.string().meta({ description: 'Stable error id; match on it, never on the message' }),
      message: z.string(),
      details: z.array(z.strictObject({ path: z.string(), message: z.string() })).optional(),
      request_id: z.string(),
    }),
  })
  .meta({ id: 'Error' });

/** RFC 6749 §5.2: the error body of the OAuth token and revocation endpoints. */
export const oauthErrorSchema = z
  .strictObject({
    error: z
      .string()
      .meta({ description: 'invalid_request, invalid_client, invalid_grant, unauthorized_client, unsupported_grant_type, invalid_scope' }),
    error_description: z.string().optional(),
    error_uri: z.string().optional(),
  })
  .meta({ id: 'OAuthError' });
