import { z } from 'zod';

/**
 * The settings of the calendar providers read through their APIs (core/config.ts spreads them into its
 * schema; README "Configuration"): each OAuth client, and every provider URL, so tests and a black-box
 * check can point them at a stand-in.
 */
export const calendarProviderSettings = {
  /**
   * Google Calendar (docs/calendars.md "Google Calendar"): the OAuth client of the Google Cloud project,
   * and every Google URL, so tests and a black-box check can point them at a stand-in.
   */
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
  GOOGLE_OAUTH_AUTHORIZE_URL: z.url().default('https://accounts.google.com/o/oauth2/v2/auth'),
  GOOGLE_OAUTH_TOKEN_URL: z.url().default('https://oauth2.googleapis.com/token'),
  GOOGLE_OAUTH_REVOKE_URL: z.url().default('https://oauth2.googleapis.com/revoke'),
  GOOGLE_CALENDAR_API_URL: z.url().default('https://www.googleapis.com/calendar/v3'),
  /**
   * Microsoft 365 (docs/calendars.md "Microsoft 365"): the app registration of the Microsoft identity
   * platform (tenant `common`: work, school and personal accounts), and every Microsoft URL.
   */
  MICROSOFT_CLIENT_ID: z.string().min(1).optional(),
  MICROSOFT_CLIENT_SECRET: z.string().min(1).optional(),
  MICROSOFT_OAUTH_AUTHORIZE_URL: z.url().default('https://login.microsoftonline.com/common/oauth2/v2.0/authorize'),
  MICROSOFT_OAUTH_TOKEN_URL: z.url().default('https://login.microsoftonline.com/common/oauth2/v2.0/token'),
  MICROSOFT_GRAPH_URL: z.url().default('https://graph.microsoft.com/v1.0'),
  /** Where Google's and Graph's push notifications are sent (`{CALENDAR_PUSH_BASE_URL}/api/hooks/google-calendar`, `…/microsoft-calendar`); default BASE_URL. */
  CALENDAR_PUSH_BASE_URL: z.url().optional(),
  /**
   * Booking writes (and removals, Meet and Teams steps) in flight to one calendar account, across every
   * worker (services/calendars/write-leases.ts; docs/calendars.md "Limits").
   */
  CALENDAR_WRITES_PER_ACCOUNT: z.coerce.number().int().min(1).max(100).default(4),
};
