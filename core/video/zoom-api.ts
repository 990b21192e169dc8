import { z } from 'zod';
import { retryAfterMs } from '../ai-notes';
import { remoteFetch, RemoteFetchError, type OutboundPolicy } from '../outbound-http';
import { VIDEO_OUTBOUND } from './daily';

/**
 * Zoom's HTTP edge (docs/scheduling.md "Zoom"): its OAuth token endpoint and its REST API, both at
 * base URLs from configuration, through the one outbound client. The answers are sorted into the
 * three failures an activity treats differently:
 * - ZoomRateLimitedError (429): retried after Zoom's `Retry-After` (seconds, an HTTP date or an
 *   ISO time, as Zoom sends for its daily limit), else one second (the per-second limit);
 * - ZoomPermanentError (any other 4xx): not retried;
 * - ZoomUnavailableError (5xx, network): the activity's retry policy takes over.
 */
export class ZoomRateLimitedError extends Error {
  constructor(
    readonly retryAfterMs: number,
    what: string,
  ) {
    super(`Zoom ${what}: HTTP 429, retry after ${Math.ceil(retryAfterMs / 1000)} s`);
  }
}
export class ZoomPermanentError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}
export class ZoomUnavailableError extends Error {}

export interface ZoomUrls {
  apiUrl: string;
  oauthUrl: string;
}

const trim = (u: string) => u.replace(/\/+$/, '');

/** One exchange with Zoom; a 2xx or 404 answer is returned, anything else thrown as one of the three failures. */
export async function zoomFetch(url: string, init: RequestInit, what: string, policy: OutboundPolicy = VIDEO_OUTBOUND): Promise<Response> {
  let res: Response;
  try {
    res = await remoteFetch(policy)(url, init);
  } catch (err) {
    if (err instanceof RemoteFetchError && err.reason === 'blocked') throw new ZoomPermanentError(0, `Zoom ${what}: ${err.message}`);
    throw new ZoomUnavailableError(`Zoom ${what}: ${String(err)}`);
  }
  if (res.ok || res.status === 404) return res;
  if (res.status === 429) {
    throw new ZoomRateLimitedError(zoomRetryAfterMs(res.headers, await res.text()), what);
  }
  const text = (await res.text()).slice(0, 200);
  if (res.status >= 500) throw new ZoomUnavailableError(`Zoom ${what}: HTTP ${res.status} ${text}`);
  throw new ZoomPermanentError(res.status, `Zoom ${what}: HTTP ${res.status} ${text}`);
}

/**
 * How long a 429 asks to wait: `Retry-After` when given (seconds, an HTTP date or ISO time); else a
 * daily limit (`X-RateLimit-Type: Daily-limit`, or the body saying so: Zoom resumes at 00:00 GMT)
 * waits for the next UTC midnight; else (the per-second limit) one second.
 */
export function zoomRetryAfterMs(headers: Headers, body: string, now = Date.now()): number {
  const header = headers.get('retry-after');
  if (header) return retryAfterMs(header, now);
  if (/daily/i.test(headers.get('x-ratelimit-type') ?? '') || /daily rate limit/i.test(body)) {
    const midnight = new Date(now);
    midnight.setUTCHours(24, 0, 0, 0);
    return midnight.getTime() - now;
  }
  return 1000;
}

/** A JSON answer read against its documented shape. */
export async function zoomJson<T>(res: Response, schema: z.ZodType<T>, what: string): Promise<T> {
  if (res.status === 404) throw new ZoomPermanentError(404, `Zoom ${what}: HTTP 404`);
  const parsed = schema.safeParse(await res.json().catch(() => null));
  if (!parsed.success) throw new ZoomUnavailableError(`Zoom ${what}: unexpected answer (${parsed.error.issues[0]?.message})`);
  return parsed.data;
}

// developers.zoom.us/docs/integrations/oauth/ and …/internal-apps/s2s-oauth/: the token answer
const tokenAnswer = z.object({
  access_token: z.string().min(1),
  expires_in: z.number(),
  refresh_token: z.string().optional(),
  scope: z.string().optional(),
});
export type ZoomToken = z.infer<typeof tokenAnswer>;

/** `POST {oauth}/oauth/token` with the client's Basic credentials and a form body. */
export async function zoomToken(
  urls: ZoomUrls,
  client: { id: string; secret: string },
  form: Record<string, string>,
  timeoutMs?: number,
): Promise<ZoomToken> {
  const init: RequestInit = {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams(form).toString(),
  };
  const policy = timeoutMs ? { ...VIDEO_OUTBOUND, timeoutMs } : VIDEO_OUTBOUND;
  const res = await zoomFetch(`${trim(urls.oauthUrl)}/oauth/token`, init, `token (${form.grant_type})`, policy);
  return zoomJson(res, tokenAnswer, 'token');
}

/** The authorization page a host is sent to (authorization-code flow). */
export function zoomAuthorizeUrl(urls: ZoomUrls, input: { clientId: string; redirectUri: string; state: string }): string {
  const q = new URLSearchParams({ response_type: 'code', client_id: input.clientId, redirect_uri: input.redirectUri, state: input.state });
  return `${trim(urls.oauthUrl)}/oauth/authorize?${q.toString()}`;
}

/** A call of the REST API with an access token. */
export function zoomApi(urls: ZoomUrls, accessToken: string) {
  return (method: string, path: string, body?: unknown): Promise<Response> =>
    zoomFetch(
      `${trim(urls.apiUrl)}${path}`,
      {
        method,
        headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      },
      `${method} ${path.split('?')[0]}`,
    );
}
export type ZoomCall = ReturnType<typeof zoomApi>;
