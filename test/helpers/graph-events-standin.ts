/**
 * A minimal stand-in of Microsoft Graph's events (not Microsoft): the identity platform's token
 * endpoint (refresh with rotating refresh tokens) and `POST /me/calendars/{id}/events`,
 * `GET/PATCH/DELETE /me/events/{id}` as the published pages describe them (docs/calendars.md
 * "Microsoft 365: writing bookings and Teams"). A create with a transactionId already used answers
 * the event made then (Graph's dedupe). The handler works over a state object so that a fuller
 * Graph stand-in can mount it: `handleGraphEvents(state, req, body)` answers null for a path it
 * does not know.
 * Switches: `personal` (a personal account: no Teams, the event is answered without onlineMeeting),
 * `dropCreates` (the next N creates store the event and never answer: the connection is closed, as a
 * client timing out sees it), `throttle` (the next N calls answer 429 with Retry-After: 1),
 * `rejectAccess` (every call 401). A body that is not JSON answers Graph's 400 BadRequest. A PATCH
 * that replaces an online meeting's body without its join link drops that meeting (a new one is made
 * when isOnlineMeeting is asked again), as Graph's event-update page warns.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BAD_JSON, GRAPH_BAD_JSON_MESSAGE, jsonBody } from './standin-requests';

export interface GraphStandinEvent {
  id: string;
  calendarId: string;
  transactionId: string | null;
  subject: string;
  body: { contentType: string; content: string };
  start: { dateTime: string; timeZone: string };
  end: { dateTime: string; timeZone: string };
  location: { displayName: string };
  showAs: string;
  attendees: Array<{ emailAddress: { address: string; name?: string }; type: string }>;
  isOnlineMeeting: boolean;
  onlineMeetingProvider: string;
  onlineMeeting: { joinUrl: string } | null;
  webLink: string;
  iCalUId: string;
}

export interface GraphEventsState {
  events: Map<string, GraphStandinEvent>;
  /** Access tokens Graph accepts; refresh tokens the token endpoint accepts (each used once). */
  accessTokens: Set<string>;
  refreshTokens: Set<string>;
  calls: Array<{ method: string; path: string; prefer: string | null; body: Record<string, unknown> | null; status: number }>;
  personal: boolean;
  dropCreates: number;
  throttle: number;
  rejectAccess: boolean;
}

export const newGraphEventsState = (): GraphEventsState => ({
  events: new Map(),
  accessTokens: new Set(),
  refreshTokens: new Set(),
  calls: [],
  personal: false,
  dropCreates: 0,
  throttle: 0,
  rejectAccess: false,
});

export type GraphAnswer = { status: number; body?: unknown; headers?: Record<string, string> } | 'drop';

const graphError = (status: number, code: string, message: string): GraphAnswer => ({ status, body: { error: { code, message } } });

const ALLOWED_FIELDS = ['subject', 'body', 'start', 'end', 'location', 'showAs', 'attendees', 'isOnlineMeeting', 'onlineMeetingProvider'];

function apply(state: GraphEventsState, ev: GraphStandinEvent, b: Record<string, unknown>): void {
  for (const k of ALLOWED_FIELDS) if (k in b) (ev as unknown as Record<string, unknown>)[k] = b[k];
  // learn.microsoft.com/graph/api/resources/onlinemeetinginfo: Teams makes the meeting with the event.
  if (ev.isOnlineMeeting && ev.onlineMeetingProvider === 'teamsForBusiness' && !state.personal) {
    ev.onlineMeeting ??= { joinUrl: `https://teams.microsoft.com/l/meetup-join/19%3ameeting_${randomUUID().slice(0, 12)}%40thread.v2/0` };
  } else if (state.personal) {
    ev.isOnlineMeeting = false;
    ev.onlineMeeting = null;
  }
}

/** An event as Graph answers it (times in UTC: the stand-in keeps them so, as `Prefer: outlook.timezone="UTC"` asks). */
const answer = (ev: GraphStandinEvent) => {
  const { calendarId: _c, ...rest } = ev;
  return { '@odata.etag': `W/"${ev.id}"`, ...rest };
};

function token(state: GraphEventsState, form: URLSearchParams): GraphAnswer {
  const rt = form.get('refresh_token') ?? '';
  if (form.get('grant_type') !== 'refresh_token' || !state.refreshTokens.has(rt))
    return { status: 400, body: { error: 'invalid_grant', error_description: 'AADSTS70000: The provided grant is invalid.' } };
  state.refreshTokens.delete(rt); // rotated: the old one is spent
  const next = { access_token: `at-${randomUUID()}`, refresh_token: `rt-${randomUUID()}` };
  state.accessTokens.add(next.access_token);
  state.refreshTokens.add(next.refresh_token);
  return { status: 200, body: { token_type: 'Bearer', expires_in: 3600, scope: 'Calendars.ReadWrite', ...next } };
}

/** One request; null when the path is not one of these. `path` is under the Graph base (`/v1.0` stripped) or `/token`. */
export function handleGraphEvents(
  state: GraphEventsState,
  req: { method: string; path: string; authorization: string | null; prefer: string | null; rawBody: string },
): GraphAnswer | null {
  const { method, path } = req;
  if (method === 'POST' && path === '/token') return token(state, new URLSearchParams(req.rawBody));
  const create = /^\/me\/calendars\/([^/]+)\/events$/.exec(path);
  const one = /^\/me\/events\/([^/]+)$/.exec(path);
  if (!create && !one) return null;
  if (state.rejectAccess || !state.accessTokens.has((req.authorization ?? '').replace(/^Bearer /, '')))
    return graphError(401, 'InvalidAuthenticationToken', 'Access token is empty or invalid.');
  if (state.throttle > 0) {
    state.throttle -= 1;
    return {
      status: 429,
      headers: { 'retry-after': '1' },
      body: { error: { code: 'ApplicationThrottled', message: 'Too many requests' } },
    };
  }
  const parsed = jsonBody(req.rawBody);
  if (parsed === BAD_JSON) return graphError(400, 'BadRequest', GRAPH_BAD_JSON_MESSAGE);
  const b = (parsed ?? {}) as Record<string, unknown>;
  if (create && method === 'POST') {
    const calendarId = decodeURIComponent(create[1]);
    const tx = typeof b.transactionId === 'string' ? b.transactionId : null;
    const same = tx ? [...state.events.values()].find((e) => e.transactionId === tx && e.calendarId === calendarId) : undefined;
    if (same) return { status: 201, body: answer(same) };
    const id = `AAMkAD${randomUUID().replace(/-/g, '')}=`;
    const ev: GraphStandinEvent = {
      id,
      calendarId,
      transactionId: tx,
      subject: '',
      body: { contentType: 'text', content: '' },
      start: { dateTime: '', timeZone: 'UTC' },
      end: { dateTime: '', timeZone: 'UTC' },
      location: { displayName: '' },
      showAs: 'busy',
      attendees: [],
      isOnlineMeeting: false,
      onlineMeetingProvider: 'unknown',
      onlineMeeting: null,
      webLink: `https://outlook.office365.com/owa/?itemid=${encodeURIComponent(id)}&exvsurl=1&path=/calendar/item`,
      iCalUId: `040000008200E00074C5B7101A82E008${id.slice(6, 30)}`,
    };
    apply(state, ev, b);
    state.events.set(id, ev);
    if (state.dropCreates > 0) {
      state.dropCreates -= 1;
      return 'drop';
    }
    return { status: 201, body: answer(ev) };
  }
  if (!one) return graphError(405, 'ErrorInvalidRequest', 'method not allowed');
  const ev = state.events.get(decodeURIComponent(one[1]));
  if (!ev) return graphError(404, 'ErrorItemNotFound', 'The specified object was not found in the store.');
  if (method === 'GET') return { status: 200, body: answer(ev) };
  if (method === 'PATCH') {
    // learn.microsoft.com/graph/api/event-update: a body replaced without the online meeting's blob disables the meeting.
    if ('body' in b && ev.onlineMeeting && !JSON.stringify(b.body).includes(ev.onlineMeeting.joinUrl)) ev.onlineMeeting = null;
    apply(state, ev, b);
    return { status: 200, body: answer(ev) };
  }
  if (method === 'DELETE') {
    state.events.delete(ev.id);
    return { status: 204 };
  }
  return graphError(405, 'ErrorInvalidRequest', 'method not allowed');
}

const read = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let s = '';
    req.on('data', (c: Buffer) => (s += c.toString('utf8')));
    req.on('end', () => resolve(s));
  });

export interface GraphEventsStandin {
  state: GraphEventsState;
  /** MICROSOFT_* settings pointing at the stand-in. */
  env(): Record<string, string>;
  /** A token pair the stand-in accepts (to seal into a connection). */
  grant(): { accessToken: string; refreshToken: string };
  /** The events of a calendar. */
  events(calendarId: string): GraphStandinEvent[];
  close(): Promise<void>;
}

export async function startGraphEventsStandin(client: { clientId: string; clientSecret: string }): Promise<GraphEventsStandin> {
  const state = newGraphEventsState();
  const server: Server = createServer((req, res) => {
    void (async () => {
      const rawBody = await read(req);
      const path = (req.url ?? '/').split('?')[0].replace(/^\/v1\.0/, '');
      const prefer = (req.headers.prefer as string | undefined) ?? null;
      const out = handleGraphEvents(state, {
        method: req.method ?? 'GET',
        path,
        authorization: req.headers.authorization ?? null,
        prefer,
        rawBody,
      }) ?? { status: 404, body: { error: { code: 'ResourceNotFound', message: `no ${path}` } } };
      const parsed = path === '/token' ? null : jsonBody(rawBody);
      const body = parsed === BAD_JSON ? null : (parsed as Record<string, unknown> | null);
      state.calls.push({ method: req.method ?? 'GET', path, prefer, body, status: out === 'drop' ? 0 : out.status });
      if (out === 'drop') return void req.socket.destroy();
      res.writeHead(out.status, { ...(out.body === undefined ? {} : { 'content-type': 'application/json' }), ...out.headers });
      res.end(out.body === undefined ? undefined : JSON.stringify(out.body));
    })();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    state,
    env: () => ({
      MICROSOFT_CLIENT_ID: client.clientId,
      MICROSOFT_CLIENT_SECRET: client.clientSecret,
      MICROSOFT_OAUTH_AUTHORIZE_URL: `${base}/authorize`,
      MICROSOFT_OAUTH_TOKEN_URL: `${base}/token`,
      MICROSOFT_GRAPH_URL: `${base}/v1.0`,
    }),
    grant: () => {
      const t = { accessToken: `at-${randomUUID()}`, refreshToken: `rt-${randomUUID()}` };
      state.accessTokens.add(t.accessToken);
      state.refreshTokens.add(t.refreshToken);
      return t;
    },
    events: (calendarId) => [...state.events.values()].filter((e) => e.calendarId === calendarId),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
