import type { UrlPolicy } from '../../domain/ssrf';
import { RemoteFetchError, remoteFetch } from '../../core/outbound-http';

/**
 * Writing one calendar object resource on a CalDAV server (RFC 4791 5.3.2): PUT with preconditions
 * and DELETE, over the SSRF-guarded fetch of core/outbound-http (no redirects to other origins carry the
 * credentials, every address is checked). Plain HTTP: two requests do not need tsdav.
 *
 * PUT (`putCalendarObject`), so that a retried or concurrent write never makes a second object and
 * never overwrites blindly:
 *   1. with the ETag we recorded: `If-Match: <etag>`;
 *   2. else, or when that precondition failed (the object changed or went away on the server):
 *      `If-None-Match: *` (create);
 *   3. when the object exists after all (a write whose answer was lost, or the host edited it): read
 *      its current ETag and `If-Match` it. The meeting is the source of truth for its own event.
 * The resource name is derived from the meeting's iCalendar UID (`objectUrl`), so every attempt, and
 * the meeting that replaces a rescheduled one (same UID), addresses the same resource.
 */

export const WRITE_TIMEOUT_MS = 30_000;
const WRITE_MAX_BYTES = 1024 * 1024;

export interface CaldavAccount {
  username: string;
  password: string;
}

/** How a failed write is retried: after the provider's Retry-After, never (a permanent refusal), or never and the connection needs connecting again. */
export interface WriteFailureKind {
  retryAfterMs?: number;
  permanent?: boolean;
  needsReauth?: boolean;
}

/** A write the server refused or could not take; `message` is the human sentence the connection shows. */
export class CalendarWriteError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly kind: WriteFailureKind = {},
  ) {
    super(message);
    this.name = 'CalendarWriteError';
  }
}

export interface PutResult {
  /** Absolute URL of the resource (the server's Location when it moved it). */
  url: string;
  etag: string | null;
}

/** The resource URL of a UID in a calendar collection: the UID with anything unusual replaced, `.ics`. */
export function objectUrl(calendarUrl: string, uid: string): string {
  const base = calendarUrl.endsWith('/') ? calendarUrl : `${calendarUrl}/`;
  return new URL(`${uid.replace(/[^A-Za-z0-9._-]/g, '_')}.ics`, base).toString();
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** What an HTTP status means for a write, in words (never the credentials). */
export function explainWriteStatus(status: number, url: string): string {
  const host = hostOf(url);
  if (status === 401) return `the server refused the username or password (HTTP 401 from ${host}); check the app password`;
  if (status === 403) return `the server does not allow writing to this calendar (HTTP 403 from ${host})`;
  if (status === 404 || status === 409) return `the calendar no longer exists on ${host} (HTTP ${status}); choose another booking calendar`;
  if (status === 507) return `the calendar on ${host} is full (HTTP 507)`;
  if (status === 413 || status === 415 || status === 400) return `${host} did not accept the event (HTTP ${status})`;
  return `${host} answered HTTP ${status}`;
}

function client(account: CaldavAccount, policy: UrlPolicy) {
  const fetchFn = remoteFetch({ urlPolicy: policy, timeoutMs: WRITE_TIMEOUT_MS, maxBytes: WRITE_MAX_BYTES, maxRedirects: 3 });
  const authorization = 'Basic ' + Buffer.from(`${account.username}:${account.password}`, 'utf8').toString('base64');
  return async (method: string, url: string, headers: Record<string, string> = {}, body?: string): Promise<Response> => {
    try {
      return await fetchFn(url, { method, headers: { authorization, ...headers }, body });
    } catch (err) {
      if (err instanceof RemoteFetchError) throw new CalendarWriteError(err.message, null);
      throw err;
    }
  };
}

function etagOf(res: Response): string | null {
  return res.headers.get('etag');
}

/** Create or replace the object at `url` (see the file comment for the preconditions). */
export async function putCalendarObject(opts: {
  account: CaldavAccount;
  policy: UrlPolicy;
  url: string;
  ics: string;
  /** The ETag recorded for our last write of it, if any. */
  etag: string | null;
}): Promise<PutResult> {
  const call = client(opts.account, opts.policy);
  const put = async (precondition: Record<string, string>) => {
    const res = await call('PUT', opts.url, { 'content-type': 'text/calendar; charset=utf-8', ...precondition }, opts.ics);
    await res.arrayBuffer();
    return res;
  };
  const done = (res: Response): PutResult => {
    const location = res.headers.get('location');
    return { url: location ? new URL(location, opts.url).toString() : opts.url, etag: etagOf(res) };
  };
  const failed = (res: Response) => new CalendarWriteError(explainWriteStatus(res.status, opts.url), res.status);

  if (opts.etag) {
    const res = await put({ 'if-match': opts.etag });
    if (res.ok) return done(res);
    if (res.status !== 412 && res.status !== 404) throw failed(res);
  }
  const created = await put({ 'if-none-match': '*' });
  if (created.ok) return done(created);
  if (created.status !== 412) throw failed(created);
  // It exists with an ETag we do not know: read it, then replace exactly that version.
  const head = await call('GET', opts.url);
  await head.arrayBuffer();
  if (!head.ok) throw failed(head);
  const current = etagOf(head);
  const replaced = await put(current ? { 'if-match': current } : {});
  if (replaced.ok) return done(replaced);
  if (replaced.status === 412) {
    throw new CalendarWriteError(`the event changed on ${hostOf(opts.url)} while it was being written (HTTP 412); trying again`, 412);
  }
  throw failed(replaced);
}

/** Delete the object at `url`; an object that is already gone counts as deleted. */
export async function deleteCalendarObject(opts: {
  account: CaldavAccount;
  policy: UrlPolicy;
  url: string;
}): Promise<'deleted' | 'absent'> {
  const call = client(opts.account, opts.policy);
  const res = await call('DELETE', opts.url);
  await res.arrayBuffer();
  if (res.ok) return 'deleted';
  if (res.status === 404 || res.status === 410) return 'absent';
  throw new CalendarWriteError(explainWriteStatus(res.status, opts.url), res.status);
}
