import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eventWrite, insertHold, type ScriptedAnswer, type WritableEvent } from './google-standin-events';
import { BAD_JSON, jsonBody } from './standin-requests';

/**
 * A stateful stand-in of Google's OAuth 2.0 endpoints and Calendar API v3, answering in the shapes of
 * the published pages named in docs/calendars.md "Google Calendar" (web-server OAuth flow with PKCE,
 * calendarList.list, events.list with syncToken/pageToken and its 410 `fullSyncRequired`,
 * events.watch, channels.stop, the push notification headers). Not Google: a test double.
 *
 * - `GET /o/oauth2/v2/auth?…&login_as=<email>` redirects back with a code (`grant_scopes` narrows
 *   what the "user" grants, as unticking a box does);
 * - `POST /token` (authorization_code with code_verifier checked against the S256 challenge;
 *   refresh_token), `POST /revoke`;
 * - the API under `/calendar/v3`, bearer tokens checked;
 * - faults: `faults.invalidGrant` (every token request answers invalid_grant), `faults.rejectAccess`
 *   (every API call answers 401), `expireSyncTokens(cal)` (the next events.list with an old token is a
 *   410), `script` (the next API answers, e.g. a 429 with Retry-After), `channelTtlMs`, `dropInserts`,
 *   `failInserts` (the next inserts' answers), `hold` (inserts parked until released, counted);
 * - event writes (insert, patch, get, delete, Meet conferences): test/helpers/google-standin-events.ts;
 * - `calls`: the request log; each event change pushes to the calendar's channels like Google does; an
 *   API request whose body is not JSON answers 400 `parseError`.
 */
export interface GoogleCall {
  method: string;
  path: string;
  query: Record<string, string>;
  body: any;
  at: number;
}
export type StandinEvent = WritableEvent;
interface StoredEvent extends StandinEvent {
  seq: number;
}
interface Calendar {
  id: string;
  owner: string;
  summary: string;
  timeZone: string;
  accessRole: string;
  primary: boolean;
  events: Map<string, StoredEvent>;
  /** Sync tokens issued before this sequence number answer 410. */
  validFrom: number;
}
export interface StandinChannel {
  id: string;
  resourceId: string;
  token: string;
  address: string;
  calendarId: string;
  expiration: number;
}

const ALL_SCOPES =
  'openid email https://www.googleapis.com/auth/calendar.freebusy https://www.googleapis.com/auth/calendar.calendarlist.readonly https://www.googleapis.com/auth/calendar.events';
const b64url = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
const rand = (n = 12) => crypto.randomBytes(n).toString('hex');

export async function startGoogleStandin(opts: { clientId: string; clientSecret: string }) {
  const calls: GoogleCall[] = [];
  const calendars = new Map<string, Calendar>();
  const codes = new Map<string, { email: string; redirectUri: string; challenge: string; scope: string }>();
  const refreshTokens = new Map<string, { email: string; scope: string }>();
  const accessTokens = new Map<string, { email: string; refresh: string | null; until: number }>();
  const channels = new Map<string, StandinChannel>();
  const script: ScriptedAnswer[] = [];
  const faults = {
    invalidGrant: false,
    rejectAccess: false,
    channelTtlMs: 7 * 24 * 3600_000,
    pageSize: 2500,
    accessTtlS: 3599,
    dropInserts: 0,
    failInserts: [] as ScriptedAnswer[],
  };
  const pushes: Array<{ channelId: string; status: number }> = [];
  const hold = insertHold();
  let seq = 1;
  let base = '';

  const send = (res: http.ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { ...(body === undefined ? {} : { 'content-type': 'application/json; charset=UTF-8' }), ...headers });
    res.end(body === undefined ? undefined : JSON.stringify(body));
  };
  const apiError = (code: number, reason: string, message: string) => ({
    error: { errors: [{ domain: 'global', reason, message }], code, message },
  });
  const issueAccess = (email: string, refresh: string | null) => {
    const t = `ya29.${rand()}`;
    accessTokens.set(t, { email, refresh, until: Date.now() + faults.accessTtlS * 1000 });
    return t;
  };

  function eventOut(cal: Calendar, e: StoredEvent) {
    const { seq: _s, ...rest } = e;
    return {
      kind: 'calendar#event',
      etag: `"${e.seq}"`,
      status: 'confirmed',
      ...rest,
      iCalUID: `${e.id}@google.com`,
      organizer: { email: cal.owner, self: true },
    };
  }

  async function pushTo(calendarId: string): Promise<void> {
    for (const ch of [...channels.values()].filter((c) => c.calendarId === calendarId)) {
      const res = await fetch(ch.address, {
        method: 'POST',
        headers: {
          'X-Goog-Channel-ID': ch.id,
          'X-Goog-Channel-Token': ch.token,
          'X-Goog-Channel-Expiration': new Date(ch.expiration).toUTCString(),
          'X-Goog-Resource-ID': ch.resourceId,
          'X-Goog-Resource-URI': `${base}/calendar/v3/calendars/${encodeURIComponent(calendarId)}/events?alt=json`,
          'X-Goog-Resource-State': 'exists',
          'X-Goog-Message-Number': String(seq++),
        },
      }).catch(() => null);
      pushes.push({ channelId: ch.id, status: res?.status ?? 0 });
      await res?.text();
    }
  }

  async function api(req: http.IncomingMessage, res: http.ServerResponse, path: string, url: URL, body: any) {
    const auth = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    const who = accessTokens.get(auth);
    if (faults.rejectAccess || !who || who.until < Date.now())
      return send(res, 401, apiError(401, 'authError', 'Request had invalid authentication credentials.'), {
        'www-authenticate': 'Bearer realm="https://accounts.google.com/"',
      });
    if (body === BAD_JSON) return send(res, 400, apiError(400, 'parseError', 'Parse Error'));
    const scripted = script.shift();
    if (scripted) return send(res, scripted.status, scripted.body ?? apiError(scripted.status, 'scripted', 'scripted'), scripted.headers);
    if (req.method === 'GET' && path === '/users/me/calendarList') {
      const items = [...calendars.values()]
        .filter((c) => c.owner === who.email)
        .map((c) => ({
          kind: 'calendar#calendarListEntry',
          id: c.id,
          summary: c.summary,
          timeZone: c.timeZone,
          accessRole: c.accessRole,
          backgroundColor: '#9fe1e7',
          ...(c.primary ? { primary: true } : {}),
        }));
      return send(res, 200, { kind: 'calendar#calendarList', etag: `"${seq}"`, items });
    }
    if (req.method === 'POST' && path === '/channels/stop') {
      const ch = channels.get(body?.id);
      if (!ch || ch.resourceId !== body?.resourceId)
        return send(res, 404, apiError(404, 'notFound', `Channel '${body?.id}' not found for project '1'`));
      channels.delete(ch.id);
      return send(res, 204);
    }
    const w = /^\/calendars\/([^/]+)\/events(?:\/([^/]+))?$/.exec(path);
    const wcal = w && w[2] !== 'watch' ? calendars.get(decodeURIComponent(w[1])) : undefined;
    if (w && wcal && wcal.owner === who.email && (req.method !== 'GET' || w[2])) {
      if (req.method !== 'GET' && wcal.accessRole !== 'owner' && wcal.accessRole !== 'writer')
        return send(res, 403, apiError(403, 'requiredAccessLevel', 'You need to have writer access to this calendar.'));
      const ctx = {
        base,
        faults,
        hold,
        calendar: wcal,
        nextSeq: () => seq++,
        send,
        apiError,
        eventOut: (e: StoredEvent) => eventOut(wcal, e),
        changed: () => void pushTo(wcal.id),
      };
      const write = { eventId: w[2] ? decodeURIComponent(w[2]) : null, url, body };
      if (eventWrite(ctx, req, res, write)) return;
    }
    const m = /^\/calendars\/([^/]+)\/events(\/watch)?$/.exec(path);
    const cal = m ? calendars.get(decodeURIComponent(m[1])) : undefined;
    if (!m || !cal || cal.owner !== who.email) return send(res, 404, apiError(404, 'notFound', 'Not Found'));
    if (m[2] && req.method === 'POST') {
      if (body?.type !== 'web_hook' || !body?.id || !body?.address) return send(res, 400, apiError(400, 'required', 'Required'));
      const ttl = body.params?.ttl ? Number(body.params.ttl) * 1000 : faults.channelTtlMs;
      const ch: StandinChannel = {
        id: body.id,
        resourceId: `res-${rand(6)}`,
        token: body.token ?? '',
        address: body.address,
        calendarId: cal.id,
        expiration: Date.now() + Math.min(ttl, faults.channelTtlMs),
      };
      channels.set(ch.id, ch);
      const out = {
        kind: 'api#channel',
        id: ch.id,
        resourceId: ch.resourceId,
        resourceUri: `${base}/calendar/v3/calendars/${m[1]}/events`,
        token: ch.token,
        expiration: String(ch.expiration),
      };
      res.on('finish', () => void pushSync(ch));
      return send(res, 200, out);
    }
    if (req.method !== 'GET' || m[2]) return send(res, 404, apiError(404, 'notFound', 'Not Found'));
    const syncToken = url.searchParams.get('syncToken');
    let since = 0;
    if (syncToken) {
      const t = /^st-(\d+)$/.exec(syncToken);
      if (!t || Number(t[1]) < cal.validFrom)
        return send(res, 410, apiError(410, 'fullSyncRequired', 'Sync token is no longer valid, a full sync is required.'));
      since = Number(t[1]);
    }
    const all = [...cal.events.values()]
      .filter((e) => (syncToken ? e.seq > since : e.status !== 'cancelled' || url.searchParams.get('showDeleted') === 'true'))
      .sort((a, b) => a.seq - b.seq);
    const offset = Number(url.searchParams.get('pageToken')?.replace(/^p-/, '') ?? 0);
    const size = Math.min(faults.pageSize, Number(url.searchParams.get('maxResults') ?? 250));
    const page = all.slice(offset, offset + size);
    const more = offset + size < all.length;
    return send(res, 200, {
      kind: 'calendar#events',
      summary: cal.summary,
      timeZone: cal.timeZone,
      accessRole: cal.accessRole,
      items: page.map((e) => eventOut(cal, e)),
      ...(more ? { nextPageToken: `p-${offset + size}` } : { nextSyncToken: `st-${seq - 1}` }),
    });
  }

  // The "sync" message Google sends when a channel is created.
  async function pushSync(ch: StandinChannel) {
    await fetch(ch.address, {
      method: 'POST',
      headers: {
        'X-Goog-Channel-ID': ch.id,
        'X-Goog-Channel-Token': ch.token,
        'X-Goog-Resource-ID': ch.resourceId,
        'X-Goog-Resource-State': 'sync',
        'X-Goog-Message-Number': '1',
      },
    })
      .then((r) => r.text())
      .catch(() => null);
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', base);
      const form = (req.headers['content-type'] ?? '').includes('x-www-form-urlencoded')
        ? Object.fromEntries(new URLSearchParams(raw))
        : null;
      const body: any = form ?? jsonBody(raw); // a body that is not JSON: the API's 400 parseError
      calls.push({ method: req.method ?? 'GET', path: url.pathname, query: Object.fromEntries(url.searchParams), body, at: Date.now() });
      void (async () => {
        if (req.method === 'GET' && url.pathname === '/o/oauth2/v2/auth') {
          const q = url.searchParams;
          if (q.get('client_id') !== opts.clientId) return send(res, 400, { error: 'invalid_client' });
          if (q.get('code_challenge_method') !== 'S256' || !q.get('code_challenge')) return send(res, 400, { error: 'invalid_request' });
          const code = `4/${rand()}`;
          const granted = q.get('grant_scopes') ?? q.get('scope') ?? '';
          codes.set(code, {
            email: q.get('login_as') ?? 'host@example.com',
            redirectUri: q.get('redirect_uri')!,
            challenge: q.get('code_challenge')!,
            scope: granted,
          });
          const back = new URL(q.get('redirect_uri')!);
          back.searchParams.set('state', q.get('state') ?? '');
          back.searchParams.set('code', code);
          back.searchParams.set('scope', granted);
          res.writeHead(302, { location: back.toString() });
          return res.end();
        }
        if (req.method === 'POST' && url.pathname === '/token') {
          if (form?.client_id !== opts.clientId || form?.client_secret !== opts.clientSecret)
            return send(res, 401, { error: 'invalid_client', error_description: 'Unauthorized' });
          if (faults.invalidGrant)
            return send(res, 400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' });
          if (form.grant_type === 'authorization_code') {
            const c = codes.get(form.code);
            codes.delete(form.code);
            const challenge = crypto
              .createHash('sha256')
              .update(form.code_verifier ?? '')
              .digest('base64url');
            if (!c || c.redirectUri !== form.redirect_uri || c.challenge !== challenge)
              return send(res, 400, { error: 'invalid_grant', error_description: 'Bad Request' });
            const refresh = `1//${rand()}`;
            refreshTokens.set(refresh, { email: c.email, scope: c.scope });
            return send(res, 200, {
              access_token: issueAccess(c.email, refresh),
              expires_in: faults.accessTtlS,
              refresh_token: refresh,
              scope: c.scope,
              token_type: 'Bearer',
              id_token: `${b64url({ alg: 'RS256' })}.${b64url({ iss: 'https://accounts.google.com', email: c.email, email_verified: true })}.sig`,
            });
          }
          if (form.grant_type === 'refresh_token') {
            const r = refreshTokens.get(form.refresh_token);
            if (!r) return send(res, 400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' });
            return send(res, 200, {
              access_token: issueAccess(r.email, form.refresh_token),
              expires_in: faults.accessTtlS,
              scope: r.scope,
              token_type: 'Bearer',
            });
          }
          return send(res, 400, { error: 'unsupported_grant_type' });
        }
        if (req.method === 'POST' && url.pathname === '/revoke') {
          const token = form?.token ?? url.searchParams.get('token') ?? '';
          if (refreshTokens.delete(token)) {
            for (const [a, v] of accessTokens) if (v.refresh === token) accessTokens.delete(a);
            return send(res, 200, {});
          }
          if (accessTokens.delete(token)) return send(res, 200, {});
          return send(res, 400, { error: 'invalid_token', error_description: 'Token expired or revoked' });
        }
        if (url.pathname.startsWith('/calendar/v3/')) return api(req, res, url.pathname.slice('/calendar/v3'.length), url, body);
        send(res, 404, { error: 'not found' });
      })().catch((err) => send(res, 500, { error: String(err) }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base,
    env: (push?: string) => ({
      GOOGLE_CLIENT_ID: opts.clientId,
      GOOGLE_CLIENT_SECRET: opts.clientSecret,
      GOOGLE_OAUTH_AUTHORIZE_URL: `${base}/o/oauth2/v2/auth`,
      GOOGLE_OAUTH_TOKEN_URL: `${base}/token`,
      GOOGLE_OAUTH_REVOKE_URL: `${base}/revoke`,
      GOOGLE_CALENDAR_API_URL: `${base}/calendar/v3`,
      ...(push ? { CALENDAR_PUSH_BASE_URL: push } : {}),
    }),
    calls,
    channels,
    pushes,
    script,
    faults,
    hold,
    refreshTokens,
    accessTokens,
    ALL_SCOPES,
    addCalendar(owner: string, c: { id: string; summary?: string; timeZone?: string; accessRole?: string; primary?: boolean }) {
      calendars.set(c.id, {
        id: c.id,
        owner,
        summary: c.summary ?? c.id,
        timeZone: c.timeZone ?? 'UTC',
        accessRole: c.accessRole ?? 'owner',
        primary: c.primary ?? false,
        events: new Map(),
        validFrom: 0,
      });
    },
    /** Insert or change an event (a new sequence number), then push to the calendar's channels. */
    async putEvent(calendarId: string, e: StandinEvent, push = true) {
      calendars.get(calendarId)!.events.set(e.id, { ...e, seq: seq++ });
      if (push) await pushTo(calendarId);
    },
    /** Delete an event: it stays, `cancelled`, for incremental syncs (as Google answers). */
    async deleteEvent(calendarId: string, id: string, push = true) {
      const cal = calendars.get(calendarId)!;
      const e = cal.events.get(id)!;
      cal.events.set(id, { ...e, status: 'cancelled', seq: seq++ });
      if (push) await pushTo(calendarId);
    },
    /** The events of a calendar as stored (cancelled ones included). */
    events(calendarId: string) {
      return [...calendars.get(calendarId)!.events.values()];
    },
    /** Every sync token issued so far for this calendar answers 410 `fullSyncRequired`. */
    expireSyncTokens(calendarId: string) {
      calendars.get(calendarId)!.validFrom = seq++;
    },
    pushTo,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
export type GoogleStandin = Awaited<ReturnType<typeof startGoogleStandin>>;
