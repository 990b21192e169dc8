import { z } from 'zod';
import type { GraphEventTimes } from '../../domain/calendars/microsoft-busy';
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
 * Microsoft's HTTP edge (docs/calendars.md "Microsoft 365"): the identity platform's v2.0
 * authorization-code flow with PKCE (authorize URL, code exchange, refresh with rotating refresh
 * tokens) and the Microsoft Graph calls the sync needs (`/me`, `/me/calendars`, calendarView delta,
 * subscriptions), through one helper, graphRequest, that write-back can use too. Every URL comes from
 * configuration. Failures are the providers' common ones (provider-http.ts):
 * - 429, or 503 with Retry-After: CalendarRateLimitedError (Retry-After, else a jittered backoff);
 * - `invalid_grant` from the token endpoint (including AADSTS700082, a refresh token expired by
 *   inactivity): CalendarGrantError; a 401 from Graph: CalendarUnauthorizedError;
 * - 410 (`syncStateNotFound`, `resyncRequired`, `syncStateInvalid`): CalendarSyncStateGoneError;
 * - any other 4xx: CalendarPermanentError; 5xx and network failures: CalendarUnavailableError.
 */
export interface MicrosoftUrls {
  authorizeUrl: string;
  tokenUrl: string;
  graphUrl: string;
}

/**
 * Asked for: a refresh token (`offline_access`), who signed in (`openid email`: the ID token's
 * address; `User.Read`, Graph's basic profile, which consent grants with any Graph scope anyway) and the calendars. `Calendars.ReadWrite` rather than `Calendars.Read`: write-back (a later task)
 * needs it, and asking for it later would mean a second consent for every host.
 */
export const MICROSOFT_SCOPES = ['offline_access', 'openid', 'email', 'User.Read', 'Calendars.ReadWrite'] as const;
/** What the granted `scope` must hold (Graph scopes may come back as `https://graph.microsoft.com/<name>`). */
export const MICROSOFT_REQUIRED_SCOPES = ['Calendars.ReadWrite'] as const;

class MicrosoftRateLimitedError extends CalendarRateLimitedError {}

interface GraphErrorBody {
  error?: { code?: string; message?: string } | string;
  error_description?: string;
  error_codes?: number[];
}

async function errorOf(res: Response): Promise<{ code: string; text: string; oauthError: string | null; description: string }> {
  const text = (await res.text().catch(() => '')).slice(0, 2000);
  let body: GraphErrorBody | null = null;
  try {
    body = JSON.parse(text) as GraphErrorBody;
  } catch {
    body = null;
  }
  const err = body?.error;
  if (typeof err === 'string') return { code: err, text: text.slice(0, 200), oauthError: err, description: body?.error_description ?? '' };
  return { code: err?.code ?? '', text: text.slice(0, 200), oauthError: null, description: err?.message ?? '' };
}

/** One exchange with Microsoft; a 2xx is returned, anything else thrown as one of the failures above. */
export async function microsoftFetch(
  url: string,
  init: RequestInit,
  what: string,
  policy: OutboundPolicy = CALENDAR_OUTBOUND,
): Promise<Response> {
  let res: Response;
  try {
    res = await remoteFetch(policy)(url, init);
  } catch (err) {
    if (err instanceof RemoteFetchError && err.reason === 'blocked')
      throw new CalendarPermanentError(0, `Microsoft ${what}: ${err.message}`);
    throw new CalendarUnavailableError(`Microsoft ${what}: ${String(err)}`);
  }
  if (res.ok) return res;
  const retryAfter = res.headers.get('retry-after');
  const { code, text, oauthError, description } = await errorOf(res);
  if (res.status === 429 || (res.status === 503 && retryAfter)) {
    const ms = retryAfter ? retryAfterMs(retryAfter) : backoffMs(1);
    throw new MicrosoftRateLimitedError(ms, `Microsoft ${what}: throttled (HTTP ${res.status}), retry after ${Math.ceil(ms / 1000)} s`);
  }
  if (oauthError === 'invalid_grant') {
    // AADSTS700082: the refresh token expired after 90 days unused; AADSTS50173/700084 and others: revoked.
    const aadsts = /AADSTS\d+/.exec(description)?.[0];
    throw new CalendarGrantError(`Microsoft ${what}: invalid_grant${aadsts ? ` (${aadsts})` : ''}`);
  }
  if (res.status === 401) throw new CalendarUnauthorizedError(`Microsoft ${what}: HTTP 401 ${code}`);
  if (res.status === 410) throw new CalendarSyncStateGoneError(`Microsoft ${what}: HTTP 410 ${code || 'gone'}`);
  if (res.status >= 500) throw new CalendarUnavailableError(`Microsoft ${what}: HTTP ${res.status} ${text}`);
  throw new CalendarPermanentError(res.status, `Microsoft ${what}: HTTP ${res.status} ${code || text}`);
}

async function json<T>(res: Response, schema: z.ZodType<T>, what: string): Promise<T> {
  const parsed = schema.safeParse(await res.json().catch(() => null));
  if (!parsed.success) throw new CalendarUnavailableError(`Microsoft ${what}: unexpected answer (${parsed.error.issues[0]?.message})`);
  return parsed.data;
}

// learn.microsoft.com/entra/identity-platform/v2-oauth2-auth-code-flow: "Request an authorization code"
export function microsoftAuthorizeUrl(
  urls: MicrosoftUrls,
  input: { clientId: string; redirectUri: string; state: string; codeChallenge: string },
): string {
  const q = new URLSearchParams({
    client_id: input.clientId,
    response_type: 'code',
    redirect_uri: input.redirectUri,
    response_mode: 'query',
    scope: MICROSOFT_SCOPES.join(' '),
    state: input.state,
    code_challenge: input.codeChallenge,
    code_challenge_method: 'S256',
    prompt: 'select_account',
  });
  return `${trimUrl(urls.authorizeUrl)}?${q.toString()}`;
}

// …/v2-oauth2-auth-code-flow "Redeem a code for an access token" and "Refresh the access token"
const tokenAnswer = z.object({
  access_token: z.string().min(1),
  expires_in: z.coerce.number(),
  refresh_token: z.string().optional(),
  scope: z.string().default(''),
  token_type: z.string().optional(),
  id_token: z.string().optional(),
});
export type MicrosoftToken = z.infer<typeof tokenAnswer>;

/** `POST {token url}`, a form body with the client id and secret (a confidential web client). */
export async function microsoftToken(
  urls: MicrosoftUrls,
  client: OAuthClient,
  form: Record<string, string>,
  timeoutMs?: number,
): Promise<MicrosoftToken> {
  const init: RequestInit = {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      client_id: client.id,
      client_secret: client.secret,
      scope: MICROSOFT_SCOPES.join(' '),
      ...form,
    }).toString(),
  };
  const policy = timeoutMs ? { ...CALENDAR_OUTBOUND, timeoutMs } : CALENDAR_OUTBOUND;
  const res = await microsoftFetch(trimUrl(urls.tokenUrl), init, `token (${form.grant_type})`, policy);
  return json(res, tokenAnswer, 'token');
}

/** Required scopes missing from a token answer's `scope` (compared without Graph's resource prefix, case-insensitively). */
export function missingMicrosoftScopes(granted: string): string[] {
  const have = new Set(
    granted
      .split(/\s+/)
      .filter(Boolean)
      .map((s) => s.replace(/^https:\/\/graph\.microsoft\.com\//i, '').toLowerCase()),
  );
  return MICROSOFT_REQUIRED_SCOPES.filter((s) => !have.has(s.toLowerCase()));
}

/** The Graph request every Microsoft call goes through: bearer token, JSON, the Graph base or a link Graph gave (nextLink, deltaLink). */
export async function graphRequest(
  urls: MicrosoftUrls,
  accessToken: string,
  input: { method: string; path: string; what: string; body?: unknown; headers?: Record<string, string> },
): Promise<Response> {
  const base = trimUrl(urls.graphUrl);
  const url = /^https?:\/\//.test(input.path) ? input.path : `${base}${input.path}`;
  // A link is followed only under the configured Graph base: the bearer token goes nowhere else.
  if (!url.startsWith(`${base}/`)) throw new CalendarPermanentError(0, `Microsoft ${input.what}: a link outside MICROSOFT_GRAPH_URL`);
  return microsoftFetch(
    url,
    {
      method: input.method,
      headers: {
        authorization: `Bearer ${accessToken}`,
        ...(input.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...input.headers,
      },
      body: input.body === undefined ? undefined : JSON.stringify(input.body),
    },
    input.what,
  );
}

// learn.microsoft.com/graph/api/user-get, calendar-list-calendars, event-delta, subscription-post-subscriptions
const meAnswer = z.object({ mail: z.string().nullish(), userPrincipalName: z.string().nullish() });
const calendarsAnswer = z.object({
  value: z.array(
    z.object({
      id: z.string().min(1),
      name: z.string().default(''),
      color: z.string().nullish(),
      hexColor: z.string().nullish(),
      canEdit: z.boolean().default(false),
      isDefaultCalendar: z.boolean().optional(),
    }),
  ),
  '@odata.nextLink': z.string().optional(),
});
export type GraphCalendar = z.infer<typeof calendarsAnswer>['value'][number];
const deltaAnswer = z.object({
  value: z.array(z.looseObject({ id: z.string().min(1) })).default([]),
  '@odata.nextLink': z.string().optional(),
  '@odata.deltaLink': z.string().optional(),
});
const subscriptionAnswer = z.object({ id: z.string().min(1), expirationDateTime: z.string() });

/** How many events one delta page may hold (Graph's odata.maxpagesize preference). */
const PAGE_SIZE = 200;
const READ_HEADERS = { prefer: `outlook.timezone="UTC", odata.maxpagesize=${PAGE_SIZE}` };

/** The Graph calls of the busy-time sync, with an access token. */
export function microsoftGraphApi(urls: MicrosoftUrls, accessToken: string) {
  const call = (method: string, path: string, what: string, body?: unknown, headers?: Record<string, string>) =>
    graphRequest(urls, accessToken, { method, path, what, body, headers });
  return {
    /** The signed-in account's address. */
    async me(): Promise<string | null> {
      const me = await json(await call('GET', '/me?$select=mail,userPrincipalName', 'me'), meAnswer, 'me');
      const email = (me.mail ?? me.userPrincipalName ?? '').toLowerCase();
      return email.includes('@') ? email : null;
    },
    /** Every page of the account's calendars. */
    async calendars(): Promise<GraphCalendar[]> {
      const out: GraphCalendar[] = [];
      let next: string | undefined = '/me/calendars?$select=id,name,color,hexColor,canEdit,isDefaultCalendar&$top=100';
      while (next) {
        const page: z.infer<typeof calendarsAnswer> = await json(await call('GET', next, 'calendars'), calendarsAnswer, 'calendars');
        out.push(...page.value);
        next = page['@odata.nextLink'];
      }
      return out;
    },
    /** One page of a calendarView delta round: its first request (a window), or a nextLink/deltaLink. */
    async deltaPage(
      input: { calendarId: string; from: string; to: string } | { link: string },
    ): Promise<{ events: GraphEventTimes[]; nextLink?: string; deltaLink?: string }> {
      const path =
        'link' in input
          ? input.link
          : `/me/calendars/${encodeURIComponent(input.calendarId)}/calendarView/delta?${new URLSearchParams({ startDateTime: input.from, endDateTime: input.to })}`;
      const page = await json(await call('GET', path, 'calendarView.delta', undefined, READ_HEADERS), deltaAnswer, 'calendarView.delta');
      return { events: page.value as GraphEventTimes[], nextLink: page['@odata.nextLink'], deltaLink: page['@odata.deltaLink'] };
    },
    /** POST /subscriptions (Graph first validates notificationUrl and lifecycleNotificationUrl). */
    async subscribe(input: {
      resource: string;
      notificationUrl: string;
      lifecycleNotificationUrl: string;
      clientState: string;
      expirationDateTime: string;
    }): Promise<{ id: string; expiresAt: number }> {
      const body = { changeType: 'created,updated,deleted', ...input };
      const s = await json(await call('POST', '/subscriptions', 'subscriptions.create', body), subscriptionAnswer, 'subscriptions.create');
      return { id: s.id, expiresAt: Date.parse(s.expirationDateTime) };
    },
    /** PATCH /subscriptions/{id} with a later expiry. */
    async renew(id: string, expirationDateTime: string): Promise<number> {
      const s = await json(
        await call('PATCH', `/subscriptions/${encodeURIComponent(id)}`, 'subscriptions.update', { expirationDateTime }),
        subscriptionAnswer,
        'subscriptions.update',
      );
      return Date.parse(s.expirationDateTime);
    },
    /** DELETE /subscriptions/{id}; one Graph no longer has (404) counts as deleted. */
    async unsubscribe(id: string): Promise<void> {
      try {
        await call('DELETE', `/subscriptions/${encodeURIComponent(id)}`, 'subscriptions.delete');
      } catch (err) {
        if (err instanceof CalendarPermanentError && err.status === 404) return;
        throw err;
      }
    },
  };
}
export type MicrosoftGraphApi = ReturnType<typeof microsoftGraphApi>;
