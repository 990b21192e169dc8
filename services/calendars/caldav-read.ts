import { createAccount, davRequest, fetchCalendars, getBasicAuthHeaders, propfind, syncCollection, type DAVResponse } from 'tsdav';
import type { UrlPolicy } from '../../domain/ssrf';
import { remoteFetch, RemoteFetchError, type FetchTrace } from '../../core/outbound-http';
import { SyncFailure } from './sync-failure';

/**
 * Reading a CalDAV account with tsdav (RFC 4791), every request through the SSRF guard:
 * discovery (RFC 6764 well-known URI, then the principal and its calendar-home-set), the list of
 * calendars, and the changes of one calendar since the last sync: an RFC 6578 sync-collection
 * REPORT from the stored sync-token when the server offers it, else a ctag compare and a listing
 * of ETags; changed objects come back with calendar-multiget. Writing (PUT/DELETE of bookings)
 * is in caldav-write.ts.
 */

/** One CalDAV exchange: connect, headers and body. */
export const CALDAV_TIMEOUT_MS = 20_000;
/** One CalDAV answer (a multiget of a batch of objects, a listing of ETags). */
export const CALDAV_MAX_BYTES = 20 * 1024 * 1024;
/** Objects asked for in one calendar-multiget. */
const MULTIGET_BATCH = 100;

export interface CaldavClient {
  serverUrl: string;
  username: string;
  fetch: typeof fetch;
  headers: Record<string, string>;
  trace: FetchTrace;
}

export function caldavClient(creds: { url: string; username: string; password: string }, policy: UrlPolicy): CaldavClient {
  const trace: FetchTrace = { responses: [] };
  return {
    serverUrl: creds.url,
    username: creds.username,
    fetch: remoteFetch({ urlPolicy: policy, timeoutMs: CALDAV_TIMEOUT_MS, maxBytes: CALDAV_MAX_BYTES, trace }),
    headers: getBasicAuthHeaders({ username: creds.username, password: creds.password }),
    trace,
  };
}

/** RFC 6764 discovery down to the calendar-home-set URL. */
export async function discoverHome(c: CaldavClient): Promise<string> {
  const account = await createAccount({
    account: { serverUrl: c.serverUrl, accountType: 'caldav' },
    headers: c.headers,
    fetch: c.fetch,
  });
  if (!account.homeUrl) throw new Error('cannot find homeUrl');
  return account.homeUrl;
}

export interface RemoteCalendar {
  url: string;
  displayName: string;
  color: string | null;
  timezone: string | null;
  ctag: string | null;
  syncToken: string | null;
  supportsSync: boolean;
  readOnly: boolean;
}

const str = (v: unknown): string | null => {
  if (v === undefined || v === null || v === '') return null;
  if (typeof v === 'object') {
    const o = v as { _cdata?: unknown; _text?: unknown };
    return str(o._cdata ?? o._text);
  }
  return String(v);
};

/** Whether a current-user-privilege-set lets the user write (no set at all: assume it does). */
function writable(set: unknown): boolean {
  const list = (set as { privilege?: unknown } | undefined)?.privilege;
  if (!list) return true;
  const names = (Array.isArray(list) ? list : [list]).flatMap((p) => Object.keys((p as object) ?? {}));
  return names.some((n) => ['all', 'write', 'writeContent', 'bind'].includes(n));
}

/** The calendars of the home that hold events (task lists and address books are left out). */
export async function listCalendars(c: CaldavClient, homeUrl: string): Promise<RemoteCalendar[]> {
  const calendars = await fetchCalendars({
    account: { serverUrl: c.serverUrl, accountType: 'caldav', rootUrl: homeUrl, homeUrl },
    props: {
      'c:calendar-timezone': {},
      'd:displayname': {},
      'ca:calendar-color': {},
      'cs:getctag': {},
      'd:resourcetype': {},
      'c:supported-calendar-component-set': {},
      'd:sync-token': {},
      'd:current-user-privilege-set': {},
    },
    projectedProps: { currentUserPrivilegeSet: true },
    headers: c.headers,
    fetch: c.fetch,
  });
  return calendars
    .filter((cal) => !cal.components || cal.components.length === 0 || cal.components.includes('VEVENT'))
    .map((cal) => {
      const name = str(cal.displayName);
      const path = new URL(cal.url).pathname.replace(/\/$/, '');
      return {
        url: cal.url,
        displayName: name ?? (decodeURIComponent(path.slice(path.lastIndexOf('/') + 1)) || 'Calendar'),
        color: str(cal.calendarColor),
        timezone: tzidOf(str(cal.timezone)),
        ctag: str(cal.ctag),
        syncToken: str(cal.syncToken),
        supportsSync: Array.isArray(cal.reports) && cal.reports.includes('syncCollection'),
        readOnly: !writable((cal as { projectedProps?: Record<string, unknown> }).projectedProps?.currentUserPrivilegeSet),
      };
    });
}

/** A calendar-timezone property is a whole VTIMEZONE; keep its TZID. */
function tzidOf(vtimezone: string | null): string | null {
  if (!vtimezone) return null;
  const m = /^TZID[^:]*:(.+)$/m.exec(vtimezone.replace(/\r\n[ \t]/g, ''));
  return m ? m[1].trim() : null;
}

export interface KnownCalendar {
  syncToken: string | null;
  ctag: string | null;
  /** What the last sync stored: href → ETag. */
  etags: Map<string, string | null>;
}

export interface CalendarChanges {
  changed: Array<{ href: string; etag: string | null; data: string }>;
  deleted: string[];
  syncToken: string | null;
  ctag: string | null;
  /** Every stored object not listed again is gone (a full listing, not a delta). */
  full: boolean;
}

const pathOf = (href: string, base: string) => new URL(href, base).pathname;

/** Nothing changed in the calendar: the sync-token (or, without one, the ctag) the listing showed is the stored one. */
export function unchanged(cal: RemoteCalendar, known: { syncToken: string | null; ctag: string | null }): boolean {
  if (cal.syncToken) return cal.syncToken === known.syncToken;
  return !!cal.ctag && cal.ctag === known.ctag;
}

/** What changed in one calendar since `known`; null when nothing did (see unchanged()). */
export async function readChanges(c: CaldavClient, cal: RemoteCalendar, known: KnownCalendar): Promise<CalendarChanges | null> {
  if (unchanged(cal, known)) return null;
  const listing = cal.supportsSync ? await syncListing(c, cal, known.syncToken) : await etagListing(c, cal);
  const toFetch: string[] = [];
  const deleted = new Set(listing.deleted);
  for (const [href, etag] of listing.present) {
    if (!known.etags.has(href) || known.etags.get(href) !== etag || etag === null) toFetch.push(href);
  }
  if (listing.full) for (const href of known.etags.keys()) if (!listing.present.has(href)) deleted.add(href);
  const changed: CalendarChanges['changed'] = [];
  for (let i = 0; i < toFetch.length; i += MULTIGET_BATCH) {
    const got = await multiget(c, cal.url, toFetch.slice(i, i + MULTIGET_BATCH));
    changed.push(...got.objects);
    for (const href of got.missing) deleted.add(href);
  }
  return { changed, deleted: [...deleted], syncToken: listing.syncToken ?? cal.syncToken, ctag: cal.ctag, full: listing.full };
}

interface Listing {
  present: Map<string, string | null>;
  deleted: string[];
  syncToken: string | null;
  full: boolean;
}

/** Object responses of a multistatus (not the collection itself). */
function objectResponses(res: DAVResponse[], collectionUrl: string): DAVResponse[] {
  const self = new URL(collectionUrl).pathname.replace(/\/$/, '');
  return res.filter((r) => typeof r.href === 'string' && pathOf(r.href, collectionUrl).replace(/\/$/, '') !== self);
}

function failedStatus(res: DAVResponse[]): DAVResponse | undefined {
  return res.find((r) => r.href === undefined || (!r.ok && r.status !== 404 && r.status !== 507 && !r.raw?.multistatus));
}

/** RFC 6578: changes since `token` (all members when there is none). An expired token starts over. */
async function syncListing(c: CaldavClient, cal: RemoteCalendar, token: string | null): Promise<Listing> {
  let current = token ?? '';
  const present = new Map<string, string | null>();
  const deleted: string[] = [];
  let full = current === '';
  for (let round = 0; round < 50; round++) {
    const res = await syncCollection({
      url: cal.url,
      props: { 'd:getetag': {} },
      syncLevel: 1,
      syncToken: current,
      headers: c.headers,
      fetch: c.fetch,
    });
    const top = res[0];
    // A token the server no longer knows: 403/409/412 with DAV:valid-sync-token (RFC 6578 §3.2).
    if (current !== '' && top && !top.raw?.multistatus && [400, 403, 409, 412].includes(top.status)) {
      current = '';
      full = true;
      present.clear();
      deleted.length = 0;
      continue;
    }
    if (!top?.raw?.multistatus) throw new SyncFailure(`the calendar "${cal.displayName}" could not be read (HTTP ${top?.status ?? '?'})`);
    let truncated = false;
    for (const r of objectResponses(res, cal.url)) {
      const href = pathOf(r.href!, cal.url);
      if (r.status === 404) deleted.push(href);
      else if (r.status === 507) truncated = true;
      else if (r.ok) present.set(href, str(r.props?.getetag));
    }
    if (res.some((r) => r.status === 507)) truncated = true;
    const next = str(top.raw.multistatus.syncToken);
    if (!truncated || !next || next === current) return { present, deleted, syncToken: next, full };
    current = next; // RFC 6578 §3.6: a truncated answer; ask again from the token it gave
  }
  throw new SyncFailure(`the calendar "${cal.displayName}" kept answering with partial results`);
}

/** Without sync-collection: every member's ETag (Depth 1 PROPFIND). */
async function etagListing(c: CaldavClient, cal: RemoteCalendar): Promise<Listing> {
  const res = await propfind({
    url: cal.url,
    props: { 'd:getetag': {}, 'd:resourcetype': {} },
    depth: '1',
    headers: c.headers,
    fetch: c.fetch,
  });
  const bad = failedStatus(res);
  if (bad || !res[0]?.raw?.multistatus)
    throw new SyncFailure(`the calendar "${cal.displayName}" could not be read (HTTP ${res[0]?.status ?? '?'})`);
  const present = new Map<string, string | null>();
  for (const r of objectResponses(res, cal.url)) {
    if (r.ok && !Object.keys(r.props?.resourcetype ?? {}).includes('collection'))
      present.set(pathOf(r.href!, cal.url), str(r.props?.getetag));
  }
  return { present, deleted: [], syncToken: null, full: true };
}

/** calendar-multiget of some hrefs; a member gone meanwhile (404) is reported as missing. */
async function multiget(c: CaldavClient, calendarUrl: string, hrefs: string[]) {
  const res = await davRequest({
    url: calendarUrl,
    init: {
      method: 'REPORT',
      headers: { ...c.headers, depth: '1' },
      namespace: 'c',
      body: {
        'calendar-multiget': {
          _attributes: { 'xmlns:d': 'DAV:', 'xmlns:c': 'urn:ietf:params:xml:ns:caldav' },
          'd:prop': { 'd:getetag': {}, 'c:calendar-data': {} },
          'd:href': hrefs,
        },
      },
    },
    fetch: c.fetch,
  });
  if (!res[0]?.raw?.multistatus) throw new SyncFailure(`calendar objects could not be read (HTTP ${res[0]?.status ?? '?'})`);
  const objects: CalendarChanges['changed'] = [];
  const missing: string[] = [];
  for (const r of res) {
    if (typeof r.href !== 'string') continue;
    const href = pathOf(r.href, calendarUrl);
    const data = str(r.props?.calendarData);
    if (r.ok && data) objects.push({ href, etag: str(r.props?.getetag), data });
    else if (r.status === 404) missing.push(href);
  }
  return { objects, missing };
}

/**
 * A human sentence for the connection's status_message: what the server said (the trace of
 * statuses), or why it could not be reached. Never the credentials, never a raw stack.
 */
export function explainCaldavFailure(err: unknown, c: Pick<CaldavClient, 'trace' | 'serverUrl'>): string {
  if (err instanceof SyncFailure) return err.message;
  if (err instanceof RemoteFetchError) return err.message;
  const host = safeHost(c.serverUrl);
  const statuses = c.trace.responses.map((r) => r.status);
  if (statuses.includes(401)) return `the server refused the username or password (HTTP 401 from ${host}); check the app password`;
  if (statuses.includes(403)) return `the server refused access to the calendars (HTTP 403 from ${host})`;
  const davAnswer = c.trace.responses.some((r) => r.status === 207 || /xml/i.test(r.contentType ?? ''));
  if (!davAnswer && c.trace.responses.length > 0) {
    return `${host} does not look like a CalDAV server (it answered ${[...new Set(statuses)].map((s) => `HTTP ${s}`).join(', ')} and no CalDAV principal)`;
  }
  const message = err instanceof Error ? err.message : String(err);
  if (/principalUrl|homeUrl/.test(message))
    return `no CalDAV calendars were found at ${c.serverUrl} (the server gave no principal or calendar home)`;
  return `the calendar server ${host} could not be read: ${message.slice(0, 200)}`;
}

function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
