import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { BAD_JSON, GRAPH_BAD_JSON_MESSAGE, graphValidates as validates, jsonBody } from './standin-requests';

/**
 * A stateful stand-in of the Microsoft identity platform (v2.0 authorization-code flow with PKCE,
 * rotating refresh tokens) and of Microsoft Graph v1.0 (`/me`, `/me/calendars`, calendarView delta
 * with `@odata.nextLink`/`@odata.deltaLink` and `@removed`, subscriptions with the validation request
 * and change and lifecycle notifications), shaped as docs/calendars.md "Microsoft 365" names. A test double.
 * - `GET /common/oauth2/v2.0/authorize?…&login_as=<email>` redirects back with a code (`grant_scopes`
 *   narrows what is granted); `POST /common/oauth2/v2.0/token` (authorization_code with the S256
 *   verifier checked; refresh_token, which rotates: the old refresh token dies);
 * - faults: `invalidGrant` (every token request: invalid_grant), `inactive` (AADSTS700082: expired by
 *   inactivity), `rejectAccess` (every Graph call: 401), `expireDeltas(cal)` (deltaLinks issued so far
 *   answer 410 syncStateNotFound), `script` (the next Graph answers: a 429 with Retry-After), `maxSubscriptionMs`, `pageSize`;
 * - `calls`: the request log (with the Prefer header); event changes notify the calendar's subscriptions;
 *   a body that is not JSON answers Graph's 400 BadRequest. */
export interface MicrosoftCall {
  method: string;
  path: string;
  query: Record<string, string>;
  body: any;
  prefer: string;
  at: number;
}
export interface StandinGraphEvent {
  id: string;
  /** Timed: UTC ISO instants. All day: dates (YYYY-MM-DD, end exclusive). */
  start: string;
  end: string;
  isAllDay?: boolean;
  showAs?: 'free' | 'tentative' | 'busy' | 'oof' | 'workingElsewhere' | 'unknown';
  response?: 'none' | 'organizer' | 'tentativelyAccepted' | 'accepted' | 'declined' | 'notResponded';
  isCancelled?: boolean;
  originalStartTimeZone?: string;
}
interface Stored extends StandinGraphEvent {
  seq: number;
  deleted?: boolean;
}
interface Calendar {
  id: string;
  owner: string;
  name: string;
  canEdit: boolean;
  events: Map<string, Stored>;
  validFrom: number;
}
export interface StandinSubscription {
  id: string;
  calendarId: string;
  resource: string;
  clientState: string;
  notificationUrl: string;
  lifecycleNotificationUrl: string;
  expiration: number;
}

const rand = (n = 12) => crypto.randomBytes(n).toString('hex');
const b64url = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
const ALL_SCOPES = 'openid email offline_access User.Read Calendars.ReadWrite';
const graphTime = (iso: string) => `${iso.replace(/Z$/, '').replace(/\.\d{3}$/, '')}.0000000`;

export async function startMicrosoftStandin(opts: { clientId: string; clientSecret: string }) {
  const calls: MicrosoftCall[] = [];
  const calendars = new Map<string, Calendar>();
  const codes = new Map<string, { email: string; redirectUri: string; challenge: string; scope: string }>();
  const refreshTokens = new Map<string, { email: string; scope: string }>();
  const accessTokens = new Map<string, { email: string; until: number }>();
  const subscriptions = new Map<string, StandinSubscription>();
  const script: Array<{ status: number; headers?: Record<string, string>; body?: unknown }> = [];
  const faults = {
    invalidGrant: false,
    inactive: false,
    rejectAccess: false,
    maxSubscriptionMs: 4230 * 60_000,
    pageSize: 1000,
    accessTtlS: 3599,
  };
  const notified: Array<{ subscriptionId: string; kind: string; status: number }> = [];
  let seq = 1;
  let base = '';

  const send = (res: http.ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers });
    res.end(body === undefined ? undefined : JSON.stringify(body));
  };
  const graphError = (code: string, message: string) => ({ error: { code, message, innerError: { date: new Date().toISOString() } } });
  const issueAccess = (email: string) => {
    const t = `eyJ0eXAi.${rand()}`;
    accessTokens.set(t, { email, until: Date.now() + faults.accessTtlS * 1000 });
    return t;
  };
  const tokenAnswer = (email: string, scope: string, withId: boolean) => {
    const refresh = `M.C5${rand()}`;
    refreshTokens.set(refresh, { email, scope });
    return {
      token_type: 'Bearer',
      // The answer's scope never names offline_access, though a refresh token comes (Microsoft Q&A 806413).
      scope: scope.replace(/\s*\boffline_access\b/g, '').trim(),
      expires_in: faults.accessTtlS,
      ext_expires_in: faults.accessTtlS,
      access_token: issueAccess(email),
      refresh_token: refresh,
      ...(withId ? { id_token: `${b64url({ alg: 'RS256' })}.${b64url({ preferred_username: email, tid: 'tenant' })}.sig` } : {}),
    };
  };

  function eventOut(e: Stored) {
    if (e.deleted) return { '@odata.type': '#microsoft.graph.event', id: e.id, '@removed': { reason: 'deleted' } };
    // An all-day event keeps its own zone whatever the Prefer header asks (Microsoft Q&A 1382503, 1162740).
    const zone = e.isAllDay ? (e.originalStartTimeZone ?? 'UTC') : 'UTC';
    const t = (v: string) => ({ dateTime: e.isAllDay ? `${v}T00:00:00.0000000` : graphTime(v), timeZone: zone });
    return {
      '@odata.type': '#microsoft.graph.event',
      '@odata.etag': `W/"${e.seq}"`,
      id: e.id,
      subject: `Private ${e.id}`,
      iCalUId: `040000008200E00074C5B7101A82E008${e.id}`,
      type: 'singleInstance',
      isAllDay: !!e.isAllDay,
      isCancelled: !!e.isCancelled,
      showAs: e.showAs ?? 'busy',
      responseStatus: { response: e.response ?? 'organizer', time: '0001-01-01T00:00:00Z' },
      originalStartTimeZone: e.originalStartTimeZone ?? 'UTC',
      start: t(e.start),
      end: t(e.end),
    };
  }
  const overlaps = (e: Stored, from: string, to: string) => {
    const s = e.isAllDay ? `${e.start}T00:00:00Z` : e.start;
    const f = e.isAllDay ? `${e.end}T00:00:00Z` : e.end;
    return Date.parse(s) < Date.parse(to) && Date.parse(f) > Date.parse(from);
  };

  async function post(url: string, body: unknown, kind: string, subscriptionId: string) {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).catch(
      () => null,
    );
    notified.push({ subscriptionId, kind, status: res?.status ?? 0 });
    await res?.text();
    return res?.status ?? 0;
  }
  async function notify(calendarId: string, id: string, changeType: string) {
    for (const s of [...subscriptions.values()].filter((x) => x.calendarId === calendarId && x.expiration > Date.now())) {
      const n = {
        subscriptionId: s.id,
        subscriptionExpirationDateTime: new Date(s.expiration).toISOString(),
        changeType,
        resource: `Users/user-id/Events/${id}`,
        resourceData: { '@odata.type': '#Microsoft.Graph.Event', '@odata.id': `Users/user-id/Events/${id}`, id },
        clientState: s.clientState,
        tenantId: 'tenant',
      };
      await post(s.notificationUrl, { value: [n] }, changeType, s.id);
    }
  }
  async function delta(res: http.ServerResponse, cal: Calendar, url: URL, prefer: string) {
    const size = Math.min(faults.pageSize, Number(/odata\.maxpagesize=(\d+)/.exec(prefer)?.[1] ?? 1000));
    const skip = url.searchParams.get('$skiptoken');
    const dt = url.searchParams.get('$deltatoken');
    let state: { from: string; to: string; since: number; at: number; offset: number };
    if (skip) state = JSON.parse(Buffer.from(skip, 'base64url').toString());
    else if (dt) {
      const d = JSON.parse(Buffer.from(dt, 'base64url').toString());
      if (d.at < cal.validFrom) return send(res, 410, graphError('syncStateNotFound', 'The sync state generation is not found.'));
      state = { ...d, since: d.at, at: seq - 1, offset: 0 };
    } else {
      const from = url.searchParams.get('startDateTime');
      const to = url.searchParams.get('endDateTime');
      if (!from || !to) return send(res, 400, graphError('ErrorInvalidParameter', 'startDateTime and endDateTime are required'));
      state = { from, to, since: 0, at: seq - 1, offset: 0 };
    }
    if (skip && state.at < cal.validFrom) return send(res, 410, graphError('resyncRequired', 'Resync required.'));
    const all = [...cal.events.values()]
      .filter((e) => (state.since ? e.seq > state.since : !e.deleted && overlaps(e, state.from, state.to)))
      .filter((e) => e.seq <= state.at || !state.since)
      .sort((a, b) => a.seq - b.seq);
    const page = all.slice(state.offset, state.offset + size);
    const more = state.offset + size < all.length;
    const link = `${base}/v1.0/me/calendars/${encodeURIComponent(cal.id)}/calendarView/delta`;
    const next = { ...state, offset: state.offset + size };
    const values = page.map((e) =>
      state.since && !e.deleted && !overlaps(e, state.from, state.to) ? eventOut({ ...e, deleted: true }) : eventOut(e),
    );
    return send(res, 200, {
      '@odata.context': `${base}/v1.0/$metadata#Collection(event)`,
      value: values,
      ...(more
        ? { '@odata.nextLink': `${link}?$skiptoken=${b64url(next)}` }
        : { '@odata.deltaLink': `${link}?$deltatoken=${b64url({ from: state.from, to: state.to, at: state.at })}` }),
    });
  }

  async function graph(req: http.IncomingMessage, res: http.ServerResponse, path: string, url: URL, body: any) {
    const who = accessTokens.get((req.headers.authorization ?? '').replace(/^Bearer /, ''));
    if (faults.rejectAccess || !who || who.until < Date.now())
      return send(res, 401, graphError('InvalidAuthenticationToken', 'Access token has expired or is not yet valid.'));
    const scripted = script.shift();
    if (scripted) return send(res, scripted.status, scripted.body ?? graphError('TooManyRequests', 'scripted'), scripted.headers);
    if (req.method === 'GET' && path === '/me') return send(res, 200, { mail: who.email, userPrincipalName: who.email });
    if (req.method === 'GET' && path === '/me/calendars') {
      const value = [...calendars.values()]
        .filter((c) => c.owner === who.email)
        .map((c, i) => ({
          id: c.id,
          name: c.name,
          color: 'auto',
          hexColor: i ? '#e0e0e0' : '',
          canEdit: c.canEdit,
          isDefaultCalendar: i === 0,
        }));
      return send(res, 200, { value });
    }
    const d = /^\/me\/calendars\/([^/]+)\/calendarView\/delta$/.exec(path);
    if (d && req.method === 'GET') {
      const cal = calendars.get(decodeURIComponent(d[1]));
      if (!cal || cal.owner !== who.email)
        return send(res, 404, graphError('ErrorItemNotFound', 'The specified object was not found in the store.'));
      return delta(res, cal, url, String(req.headers.prefer ?? ''));
    }
    if (req.method === 'POST' && path === '/subscriptions') {
      const m = /^\/?me\/calendars\/([^/]+)\/events$/.exec(body?.resource ?? '');
      const cal = m ? calendars.get(decodeURIComponent(m[1])) : undefined;
      if (!cal || !body.notificationUrl || !body.expirationDateTime || !body.changeType)
        return send(res, 400, graphError('InvalidRequest', 'Invalid subscription request'));
      for (const u of [body.notificationUrl, body.lifecycleNotificationUrl].filter(Boolean))
        if (!(await validates(u))) return send(res, 400, graphError('ValidationError', `Subscription validation request failed for ${u}.`));
      const s: StandinSubscription = {
        id: crypto.randomUUID(),
        calendarId: cal.id,
        resource: body.resource,
        clientState: body.clientState ?? '',
        notificationUrl: body.notificationUrl,
        lifecycleNotificationUrl: body.lifecycleNotificationUrl ?? body.notificationUrl,
        expiration: Math.min(Date.parse(body.expirationDateTime), Date.now() + faults.maxSubscriptionMs),
      };
      subscriptions.set(s.id, s);
      return send(res, 201, {
        id: s.id,
        resource: s.resource,
        changeType: body.changeType,
        expirationDateTime: new Date(s.expiration).toISOString(),
      });
    }
    const s = /^\/subscriptions\/([^/]+)$/.exec(path);
    const sub = s ? subscriptions.get(decodeURIComponent(s[1])) : undefined;
    if (s && !sub) return send(res, 404, graphError('ResourceNotFound', 'The object was not found.'));
    if (sub && req.method === 'PATCH') {
      sub.expiration = Math.min(Date.parse(body?.expirationDateTime), Date.now() + faults.maxSubscriptionMs);
      return send(res, 200, { id: sub.id, resource: sub.resource, expirationDateTime: new Date(sub.expiration).toISOString() });
    }
    if (sub && req.method === 'DELETE') {
      subscriptions.delete(sub.id);
      return send(res, 204);
    }
    send(res, 404, graphError('ResourceNotFound', 'Resource not found for the segment.'));
  }

  async function token(res: http.ServerResponse, form: Record<string, string> | null) {
    if (form?.client_id !== opts.clientId || form?.client_secret !== opts.clientSecret)
      return send(res, 401, { error: 'invalid_client', error_description: 'AADSTS7000215: Invalid client secret provided.' });
    const refused = (d: string) =>
      send(res, 400, { error: 'invalid_grant', error_description: d, error_codes: [Number(/\d+/.exec(d)![0])] });
    if (faults.inactive) return refused('AADSTS700082: The refresh token has expired due to inactivity.');
    if (faults.invalidGrant) return refused('AADSTS50173: The provided grant has expired due to it being revoked.');
    if (form.grant_type === 'authorization_code') {
      const c = codes.get(form.code);
      codes.delete(form.code);
      const challenge = crypto
        .createHash('sha256')
        .update(form.code_verifier ?? '')
        .digest('base64url');
      if (!c || c.redirectUri !== form.redirect_uri || c.challenge !== challenge)
        return refused('AADSTS70008: The provided authorization code or refresh token has expired.');
      return send(res, 200, tokenAnswer(c.email, c.scope, true));
    }
    if (form.grant_type === 'refresh_token') {
      const r = refreshTokens.get(form.refresh_token);
      if (!r) return refused('AADSTS70000: The provided value for the refresh_token is not valid.');
      refreshTokens.delete(form.refresh_token); // rotation: the old one dies
      return send(res, 200, tokenAnswer(r.email, r.scope, false));
    }
    return send(res, 400, { error: 'unsupported_grant_type' });
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
      const body: any = form ?? jsonBody(raw); // a body that is not JSON: Graph's 400 BadRequest below
      calls.push({
        method: req.method ?? 'GET',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        body,
        prefer: String(req.headers.prefer ?? ''),
        at: Date.now(),
      });
      void (async () => {
        if (req.method === 'GET' && url.pathname === '/common/oauth2/v2.0/authorize') {
          const q = url.searchParams;
          if (q.get('client_id') !== opts.clientId) return send(res, 400, { error: 'invalid_client' });
          if (q.get('code_challenge_method') !== 'S256' || !q.get('code_challenge')) return send(res, 400, { error: 'invalid_request' });
          const code = `M.R3_BAY.${rand()}`;
          const scope = q.get('grant_scopes') ?? ALL_SCOPES;
          codes.set(code, {
            email: q.get('login_as') ?? 'host@contoso.example',
            redirectUri: q.get('redirect_uri')!,
            challenge: q.get('code_challenge')!,
            scope,
          });
          const back = new URL(q.get('redirect_uri')!);
          back.searchParams.set('code', code);
          back.searchParams.set('state', q.get('state') ?? '');
          res.writeHead(302, { location: back.toString() });
          return res.end();
        }
        if (req.method === 'POST' && url.pathname === '/common/oauth2/v2.0/token') return token(res, form);
        if (body === BAD_JSON) return send(res, 400, graphError('BadRequest', GRAPH_BAD_JSON_MESSAGE));
        if (url.pathname.startsWith('/v1.0/')) return graph(req, res, url.pathname.slice('/v1.0'.length), url, body);
        send(res, 404, { error: 'not found' });
      })().catch((err) => send(res, 500, { error: String(err) }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base,
    env: () => ({
      MICROSOFT_CLIENT_ID: opts.clientId,
      MICROSOFT_CLIENT_SECRET: opts.clientSecret,
      MICROSOFT_OAUTH_AUTHORIZE_URL: `${base}/common/oauth2/v2.0/authorize`,
      MICROSOFT_OAUTH_TOKEN_URL: `${base}/common/oauth2/v2.0/token`,
      MICROSOFT_GRAPH_URL: `${base}/v1.0`,
    }),
    calls,
    subscriptions,
    notified,
    script,
    faults,
    refreshTokens,
    accessTokens,
    addCalendar(owner: string, c: { id: string; name?: string; canEdit?: boolean }) {
      calendars.set(c.id, { id: c.id, owner, name: c.name ?? c.id, canEdit: c.canEdit ?? true, events: new Map(), validFrom: 0 });
    },
    /** Insert or change an event, then notify the calendar's subscriptions (created or updated). */
    async putEvent(calendarId: string, e: StandinGraphEvent, push = true) {
      const cal = calendars.get(calendarId)!;
      const known = cal.events.has(e.id);
      cal.events.set(e.id, { ...e, seq: seq++ });
      if (push) await notify(calendarId, e.id, known ? 'updated' : 'created');
    },
    /** Delete an event: later delta reads answer it `@removed`. */
    async deleteEvent(calendarId: string, id: string, push = true) {
      const cal = calendars.get(calendarId)!;
      cal.events.set(id, { ...cal.events.get(id)!, deleted: true, seq: seq++ });
      if (push) await notify(calendarId, id, 'deleted');
    },
    /** Every deltaLink issued so far for this calendar answers 410 syncStateNotFound. */
    expireDeltas(calendarId: string) {
      calendars.get(calendarId)!.validFrom = seq++;
    },
    /** A lifecycle notification to a subscription's lifecycleNotificationUrl. */
    async lifecycle(subscriptionId: string, lifecycleEvent: 'reauthorizationRequired' | 'subscriptionRemoved' | 'missed') {
      const s = subscriptions.get(subscriptionId)!;
      if (lifecycleEvent === 'subscriptionRemoved') subscriptions.delete(s.id);
      const n = {
        subscriptionId: s.id,
        subscriptionExpirationDateTime: new Date(s.expiration).toISOString(),
        tenantId: 'tenant',
        clientState: s.clientState,
        // learn.microsoft.com/graph/api/resources/changenotification: a lifecycle notice's resource is the subscription.
        resource: '',
        resourceData: { '@odata.type': '#microsoft.graph.subscription', '@odata.id': `subscriptions/${s.id}`, id: s.id },
        lifecycleEvent,
      };
      return post(s.lifecycleNotificationUrl, { value: [n] }, lifecycleEvent, s.id);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
export type MicrosoftStandin = Awaited<ReturnType<typeof startMicrosoftStandin>>;
