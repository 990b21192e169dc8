import { z } from 'zod';
import { retryAfterMs } from '../ai-notes';
import { remoteFetch, RemoteFetchError, type OutboundPolicy } from '../outbound-http';
import {
  backoffMs,
  CALENDAR_OUTBOUND,
  CalendarGrantError,
  CalendarPermanentError,
  CalendarRateLimitedError,
  CalendarSyncStateGoneError,
  CalendarUnauthorizedError,
  CalendarUnavailableError,
  trimUrl,
  type OAuthClient,
} from './provider-http';

/**
 * Google Calendar's HTTP edge (docs/calendars.md "Google Calendar"): OAuth 2.0 for web server
 * applications (authorize URL with PKCE, token exchange, refresh, revoke) and the Calendar API v3
 * calls the sync needs (calendarList.list, events.list with syncToken/pageToken, events.watch,
 * channels.stop). Every URL comes from configuration, so tests and a black-box check run against a
 * stand-in. Answers are sorted into the failures the sync treats differently:
 * - GoogleRateLimitedError: 429, or 403 `rateLimitExceeded`/`userRateLimitExceeded`; waits `Retry-After`
 *   when given, else a jittered backoff;
 * - GoogleGrantError: the token endpoint's `invalid_grant` (the grant was revoked or expired);
 * - GoogleUnauthorizedError: a 401 from the API (the caller refreshes once, then gives up);
 * - GoogleSyncTokenGoneError: 410 (`fullSyncRequired`): wipe and sync in full;
 * - GooglePermanentError: any other 4xx (not retried);
 * - GoogleUnavailableError: 5xx and network failures.
 */
export class GoogleRateLimitedError extends CalendarRateLimitedError {
  constructor(retryAfterMs: number, what: string) {
    super(retryAfterMs, `Google ${what}: rate limited, retry after ${Math.ceil(retryAfterMs / 1000)} s`);
  }
}
export class GoogleGrantError extends CalendarGrantError {}
export class GoogleUnauthorizedError extends CalendarUnauthorizedError {}
export class GoogleSyncTokenGoneError extends CalendarSyncStateGoneError {}
export class GooglePermanentError extends CalendarPermanentError {}
export class GoogleUnavailableError extends CalendarUnavailableError {}

export interface GoogleUrls {
  authorizeUrl: string;
  tokenUrl: string;
  revokeUrl: string;
  apiUrl: string;
}
export type GoogleClient = OAuthClient;

export const GOOGLE_OUTBOUND: OutboundPolicy = CALENDAR_OUTBOUND;

/** The scopes asked for: the narrowest that work (free/busy, the calendar list, events), and the account's address. */
export const GOOGLE_SCOPES = [
  'openid',
  'email',
  'https://www.googleapis.com/auth/calendar.freebusy',
  'https://www.googleapis.com/auth/calendar.calendarlist.readonly',
  'https://www.googleapis.com/auth/calendar.events',
] as const;
/** What must be granted for the sync to work (a user may untick a box on the consent page). */
export const GOOGLE_REQUIRED_SCOPES = [
  'https://www.googleapis.com/auth/calendar.calendarlist.readonly',
  'https://www.googleapis.com/auth/calendar.events',
] as const;

const trim = trimUrl;

interface GoogleErrorBody {
  error?: { code?: number; message?: string; errors?: Array<{ reason?: string }>; status?: string } | string;
  error_description?: string;
}

async function errorBody(res: Response): Promise<{ reasons: string[]; text: string; oauthError: string | null }> {
  const text = (await res.text().catch(() => '')).slice(0, 2000);
  let body: GoogleErrorBody | null = null;
  try {
    body = JSON.parse(text) as GoogleErrorBody;
  } catch {
    body = null;
  }
  const err = body?.error;
  if (typeof err === 'string') return { reasons: [err], text: text.slice(0, 200), oauthError: err };
  return { reasons: (err?.errors ?? []).map((e) => e.reason ?? '').filter(Boolean), text: text.slice(0, 200), oauthError: null };
}

/** One exchange; a 2xx is returned, anything else thrown as one of the failures above. */
export async function googleFetch(
  url: string,
  init: RequestInit,
  what: string,
  policy: OutboundPolicy = GOOGLE_OUTBOUND,
): Promise<Response> {
  let res: Response;
  try {
    res = await remoteFetch(policy)(url, init);
  } catch (err) {
    if (err instanceof RemoteFetchError && err.reason === 'blocked') throw new GooglePermanentError(0, `Google ${what}: ${err.message}`);
    throw new GoogleUnavailableError(`Google ${what}: ${String(err)}`);
  }
  if (res.ok) return res;
  const retryAfter = res.headers.get('retry-after');
  const { reasons, text, oauthError } = await errorBody(res);
  if (res.status === 429 || (res.status === 403 && reasons.some((r) => r === 'rateLimitExceeded' || r === 'userRateLimitExceeded'))) {
    throw new GoogleRateLimitedError(retryAfter ? retryAfterMs(retryAfter) : backoffMs(1), what);
  }
  if (oauthError === 'invalid_grant') throw new GoogleGrantError(`Google ${what}: invalid_grant`);
  if (res.status === 401) throw new GoogleUnauthorizedError(`Google ${what}: HTTP 401`);
  if (res.status === 410) throw new GoogleSyncTokenGoneError(`Google ${what}: HTTP 410 ${reasons.join(',') || 'gone'}`);
  if (res.status >= 500) throw new GoogleUnavailableError(`Google ${what}: HTTP ${res.status} ${text}`);
  throw new GooglePermanentError(res.status, `Google ${what}: HTTP ${res.status} ${text}`);
}

async function json<T>(res: Response, schema: z.ZodType<T>, what: string): Promise<T> {
  const parsed = schema.safeParse(await res.json().catch(() => null));
  if (!parsed.success) throw new GoogleUnavailableError(`Google ${what}: unexpected answer (${parsed.error.issues[0]?.message})`);
  return parsed.data;
}

// developers.google.com/identity/protocols/oauth2/web-server: the authorization request
export function googleAuthorizeUrl(
  urls: GoogleUrls,
  input: { clientId: string; redirectUri: string; state: string; codeChallenge: string; loginHint?: string },
): string {
  const q = new URLSearchParams({
    response_type: 'code',
    client_id: input.clientId,
    redirect_uri: input.redirectUri,
    scope: GOOGLE_SCOPES.join(' '),
    access_type: 'offline',
    prompt: 'consent',
    include_granted_scopes: 'false',
    state: input.state,
    code_challenge: input.codeChallenge,
    code_challenge_method: 'S256',
  });
  if (input.loginHint) q.set('login_hint', input.loginHint);
  return `${trim(urls.authorizeUrl)}?${q.toString()}`;
}

// …/web-server "Exchange authorization code for refresh and access tokens" and "Refreshing an access token"
const tokenAnswer = z.object({
  access_token: z.string().min(1),
  expires_in: z.number(),
  refresh_token: z.string().optional(),
  scope: z.string().default(''),
  token_type: z.string().optional(),
  id_token: z.string().optional(),
});
export type GoogleToken = z.infer<typeof tokenAnswer>;

/** `POST {token url}` with a form body (client id and secret in the body, as Google's page shows). */
export async function googleToken(
  urls: GoogleUrls,
  client: GoogleClient,
  form: Record<string, string>,
  timeoutMs?: number,
): Promise<GoogleToken> {
  const init: RequestInit = {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: client.id, client_secret: client.secret, ...form }).toString(),
  };
  const policy = timeoutMs ? { ...GOOGLE_OUTBOUND, timeoutMs } : GOOGLE_OUTBOUND;
  const res = await googleFetch(trim(urls.tokenUrl), init, `token (${form.grant_type})`, policy);
  return json(res, tokenAnswer, 'token');
}

/** Scopes of a token answer missing from what the sync needs. */
export function missingScopes(granted: string): string[] {
  const have = new Set(granted.split(/\s+/).filter(Boolean));
  return GOOGLE_REQUIRED_SCOPES.filter((s) => !have.has(s));
}

/** `POST {revoke url}` with `token=`; a token Google no longer knows (400 invalid_token) counts as revoked. */
export async function googleRevoke(urls: GoogleUrls, token: string): Promise<void> {
  try {
    await googleFetch(
      trim(urls.revokeUrl),
      { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token }).toString() },
      'revoke',
    );
  } catch (err) {
    if (err instanceof GooglePermanentError && err.status === 400) return;
    throw err;
  }
}

// developers.google.com/calendar/api/v3/reference/calendarList/list
const calendarListAnswer = z.object({
  items: z
    .array(
      z.object({
        id: z.string().min(1),
        summary: z.string().default(''),
        summaryOverride: z.string().optional(),
        timeZone: z.string().optional(),
        backgroundColor: z.string().optional(),
        accessRole: z.string().default('reader'),
        primary: z.boolean().optional(),
        deleted: z.boolean().optional(),
      }),
    )
    .default([]),
  nextPageToken: z.string().optional(),
});
export type GoogleCalendarEntry = z.infer<typeof calendarListAnswer>['items'][number];

// developers.google.com/calendar/api/v3/reference/events (the resource) and …/events/list
const eventTime = z.object({ date: z.string().optional(), dateTime: z.string().optional(), timeZone: z.string().optional() });
export const zGoogleEvent = z.object({
  id: z.string().min(1),
  status: z.string().default('confirmed'),
  iCalUID: z.string().optional(),
  start: eventTime.optional(),
  end: eventTime.optional(),
  transparency: z.string().optional(),
  eventType: z.string().optional(),
  attendees: z
    .array(z.object({ email: z.string().optional(), self: z.boolean().optional(), responseStatus: z.string().optional() }))
    .optional(),
});
export type GoogleEvent = z.infer<typeof zGoogleEvent>;
const eventsAnswer = z.object({
  items: z.array(zGoogleEvent).default([]),
  timeZone: z.string().optional(),
  nextPageToken: z.string().optional(),
  nextSyncToken: z.string().optional(),
});
export type GoogleEventsPage = z.infer<typeof eventsAnswer>;

// developers.google.com/calendar/api/v3/reference/events/watch and …/channels (the resource)
const channelAnswer = z.object({
  id: z.string(),
  resourceId: z.string(),
  expiration: z.union([z.string(), z.number()]).optional(),
});

/** The Calendar API with an access token. */
export function googleCalendarApi(urls: GoogleUrls, accessToken: string) {
  const base = trim(urls.apiUrl);
  const call = (method: string, path: string, what: string, body?: unknown) =>
    googleFetch(
      `${base}${path}`,
      {
        method,
        headers: { authorization: `Bearer ${accessToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      },
      what,
    );
  const cal = (id: string) => `/calendars/${encodeURIComponent(id)}`;
  return {
    /** Every page of the user's calendar list. */
    async calendarList(): Promise<GoogleCalendarEntry[]> {
      const out: GoogleCalendarEntry[] = [];
      let pageToken: string | undefined;
      do {
        const q = new URLSearchParams({ maxResults: '250', ...(pageToken ? { pageToken } : {}) });
        const page = await json(
          await call('GET', `/users/me/calendarList?${q}`, 'calendarList.list'),
          calendarListAnswer,
          'calendarList.list',
        );
        out.push(...page.items.filter((c) => !c.deleted));
        pageToken = page.nextPageToken;
      } while (pageToken);
      return out;
    },
    /**
     * One page of events.list: with `syncToken` (incremental; deleted events come back `cancelled`), or
     * without it (a full sync; `timeMin` bounds it). Recurring events come expanded (`singleEvents`).
     */
    async eventsPage(
      calendarId: string,
      input: { syncToken?: string | null; pageToken?: string; timeMin?: string },
    ): Promise<GoogleEventsPage> {
      const q = new URLSearchParams({ singleEvents: 'true', maxResults: '2500', showDeleted: 'true' });
      if (input.syncToken) q.set('syncToken', input.syncToken);
      else if (input.timeMin) q.set('timeMin', input.timeMin);
      if (input.pageToken) q.set('pageToken', input.pageToken);
      return json(await call('GET', `${cal(calendarId)}/events?${q}`, 'events.list'), eventsAnswer, 'events.list');
    },
    /** events.watch: a web_hook channel with a secret token; answers the channel's resource id and expiry (epoch ms). */
    async watch(
      calendarId: string,
      input: { id: string; address: string; token: string; ttlSeconds?: number },
    ): Promise<{ resourceId: string; expiration: number | null }> {
      const body = {
        id: input.id,
        type: 'web_hook',
        address: input.address,
        token: input.token,
        ...(input.ttlSeconds ? { params: { ttl: String(input.ttlSeconds) } } : {}),
      };
      const ch = await json(await call('POST', `${cal(calendarId)}/events/watch`, 'events.watch', body), channelAnswer, 'events.watch');
      const exp = ch.expiration === undefined ? null : Number(ch.expiration);
      return { resourceId: ch.resourceId, expiration: Number.isFinite(exp) ? exp : null };
    },
    /** channels.stop; a channel Google no longer has (404) counts as stopped. */
    async stopChannel(input: { id: string; resourceId: string }): Promise<void> {
      try {
        await call('POST', '/channels/stop', 'channels.stop', { id: input.id, resourceId: input.resourceId });
      } catch (err) {
        if (err instanceof GooglePermanentError && err.status === 404) return;
        throw err;
      }
    },
  };
}
export type GoogleCalendarApi = ReturnType<typeof googleCalendarApi>;
