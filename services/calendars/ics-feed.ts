import type { UrlPolicy } from '../../domain/ssrf';
import { remoteFetch, RemoteFetchError } from '../../core/outbound-http';
import { SyncFailure } from './sync-failure';

/**
 * Reading a secret iCalendar feed (Google's and Outlook's "secret address"): a conditional GET with
 * the stored ETag and Last-Modified, so an unchanged feed costs a 304 and no parsing. The answer
 * is bounded: FEED_MAX_BYTES (5 MB, docs/calendars.md "Limits") and FEED_TIMEOUT_MS.
 */
export const FEED_MAX_BYTES = 5 * 1024 * 1024;
export const FEED_TIMEOUT_MS = 20_000;

export type FeedAnswer = { changed: false } | { changed: true; text: string; etag: string | null; lastModified: string | null };

export async function fetchFeed(
  url: string,
  previous: { etag: string | null; lastModified: string | null },
  policy: UrlPolicy,
): Promise<FeedAnswer> {
  const fetchFn = remoteFetch({ urlPolicy: policy, timeoutMs: FEED_TIMEOUT_MS, maxBytes: FEED_MAX_BYTES });
  const headers: Record<string, string> = { accept: 'text/calendar, */*;q=0.5' };
  if (previous.etag) headers['if-none-match'] = previous.etag;
  if (previous.lastModified) headers['if-modified-since'] = previous.lastModified;
  let res: Response;
  try {
    res = await fetchFn(url, { method: 'GET', headers });
  } catch (err) {
    if (err instanceof RemoteFetchError) {
      throw new SyncFailure(
        err.reason === 'too_large' ? `the feed is larger than the ${FEED_MAX_BYTES / 1024 / 1024} MB limit` : err.message,
      );
    }
    throw err;
  }
  const host = new URL(url).host;
  if (res.status === 304) return { changed: false };
  if (res.status === 401 || res.status === 403)
    throw new SyncFailure(`${host} refused the feed (HTTP ${res.status}); the secret address may have been reset`);
  if (res.status === 404 || res.status === 410)
    throw new SyncFailure(`${host} has no feed at this address (HTTP ${res.status}); the secret address may have been reset`);
  if (!res.ok) throw new SyncFailure(`${host} answered HTTP ${res.status} for the feed`);
  const text = (await res.text()).replace(/^\uFEFF/, '');
  if (!/^\s*BEGIN:VCALENDAR/i.test(text))
    throw new SyncFailure(`the address does not serve an iCalendar feed (${host} answered something else)`);
  return { changed: true, text, etag: res.headers.get('etag'), lastModified: res.headers.get('last-modified') };
}
