import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ZoomCall {
  method: string;
  path: string;
  body: Record<string, any> | null;
  authorization: string;
  /** When it arrived (epoch ms): the gap after a 429 is read from it. */
  at: number;
}
export interface StandinMeeting {
  id: number;
  userId: string;
  topic: string;
  start_time: string;
  duration: number;
  timezone: string;
  agenda: string;
  join_url: string;
  settings: { auto_recording: string };
  files: Array<{ id: string; file_type: string; file_extension: string; content: string }>;
}

const b64url = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');

/**
 * A local stand-in of Zoom, answering as its published pages show (docs/scheduling.md "Zoom"):
 * OAuth (`GET /oauth/authorize` redirecting back with a code; `POST /oauth/token` with Basic client
 * credentials for `authorization_code`, `refresh_token` — each refresh rotates the refresh token and
 * the old one stops working — and `account_credentials`); the meetings API under `/v2` (create, list
 * upcoming with their agenda, patch, delete, 404 for an unknown meeting); a meeting's cloud recordings
 * with `download_access_token`; the files themselves (`/rec/download/<id>`, needing a token); and
 * its webhooks, signed as Zoom signs them (`x-zm-signature: v0=HMAC-SHA256(secret, v0:{ts}:{body})`).
 * `script` answers the next calls to `/v2` with the given status and headers (a 429 with Retry-After);
 * `dropNextCreate` makes a create succeed and the connection close before the answer.
 */
export async function startZoomStandin(opts: { clientId: string; clientSecret: string; accountId: string; secretToken: string }) {
  const calls: ZoomCall[] = [];
  const meetings = new Map<number, StandinMeeting>();
  const codes = new Map<string, { userId: string; redirectUri: string }>();
  const refreshTokens = new Map<string, string>(); // valid refresh token -> user id
  const accessTokens = new Set<string>();
  const fileTokens = new Map<string, number>(); // download_access_token -> meeting id
  const script: Array<{ status: number; headers?: Record<string, string> }> = [];
  const state = { dropNextCreate: false, freeAccount: false, nextId: 81_000_000_000, refreshes: 0 };
  let base = '';

  const issueAccess = (claims: Record<string, string>) => {
    const t = `${b64url({ alg: 'HS512' })}.${b64url({ ...claims, exp: Math.floor(Date.now() / 1000) + 3600 })}.${crypto.randomBytes(8).toString('hex')}`;
    accessTokens.add(t);
    return t;
  };
  const issueRefresh = (userId: string) => {
    const t = `rt-${crypto.randomBytes(12).toString('hex')}`;
    refreshTokens.set(t, userId);
    return t;
  };

  function token(body: URLSearchParams, auth: string): { status: number; body: unknown } {
    const basic = `Basic ${Buffer.from(`${opts.clientId}:${opts.clientSecret}`).toString('base64')}`;
    if (auth !== basic) return { status: 401, body: { reason: 'Invalid client_id or client_secret', error: 'invalid_client' } };
    const grant = body.get('grant_type');
    if (grant === 'account_credentials') {
      if (body.get('account_id') !== opts.accountId)
        return { status: 400, body: { reason: 'Invalid account_id', error: 'invalid_request' } };
      return {
        status: 200,
        body: { access_token: issueAccess({ aid: opts.accountId }), token_type: 'bearer', expires_in: 3600, scope: 'meeting:write:admin' },
      };
    }
    let userId: string | undefined;
    if (grant === 'authorization_code') {
      const c = codes.get(body.get('code') ?? '');
      codes.delete(body.get('code') ?? '');
      if (!c || c.redirectUri !== body.get('redirect_uri'))
        return { status: 400, body: { reason: 'Invalid authorization code', error: 'invalid_grant' } };
      userId = c.userId;
    } else if (grant === 'refresh_token') {
      userId = refreshTokens.get(body.get('refresh_token') ?? '');
      refreshTokens.delete(body.get('refresh_token') ?? '');
      if (!userId) return { status: 400, body: { reason: 'Invalid Token!', error: 'invalid_grant' } };
      state.refreshes++;
    } else return { status: 400, body: { reason: 'Unsupported grant type', error: 'unsupported_grant_type' } };
    const access = issueAccess({ uid: userId, aid: opts.accountId });
    return {
      status: 200,
      body: { access_token: access, token_type: 'bearer', refresh_token: issueRefresh(userId), expires_in: 3600, scope: 'meeting:write' },
    };
  }

  function api(call: ZoomCall, url: URL): { status: number; body?: unknown; headers?: Record<string, string> } {
    const bearer = call.authorization.replace(/^Bearer /, '');
    if (!accessTokens.has(bearer)) return { status: 401, body: { code: 124, message: 'Invalid access token.' } };
    const next = script.shift();
    if (next)
      return {
        status: next.status,
        headers: next.headers,
        body: { code: next.status, message: 'You have reached the maximum per-second rate limit for this API.' },
      };
    const userMeetings = /^\/v2\/users\/([^/]+)\/meetings$/.exec(url.pathname);
    if (userMeetings && call.method === 'POST') {
      const userId = decodeURIComponent(userMeetings[1]);
      const b = call.body ?? {};
      const id = state.nextId++;
      const m: StandinMeeting = {
        id,
        userId,
        topic: b.topic,
        start_time: b.start_time,
        duration: b.duration,
        timezone: b.timezone,
        agenda: b.agenda ?? '',
        join_url: `https://zoom.example/j/${id}?pwd=${crypto.randomBytes(6).toString('hex')}`,
        // a free account keeps no cloud recording: `cloud` comes back as `local`
        settings: {
          auto_recording: b.settings?.auto_recording === 'cloud' && state.freeAccount ? 'local' : (b.settings?.auto_recording ?? 'none'),
        },
        files: [],
      };
      meetings.set(id, m);
      return { status: 201, body: present(m) };
    }
    if (userMeetings && call.method === 'GET') {
      const userId = decodeURIComponent(userMeetings[1]);
      return {
        status: 200,
        body: {
          page_size: 300,
          total_records: 0,
          next_page_token: '',
          meetings: [...meetings.values()].filter((m) => m.userId === userId).map(present),
        },
      };
    }
    const recordings = /^\/v2\/meetings\/(\d+)\/recordings$/.exec(url.pathname);
    if (recordings && call.method === 'GET') {
      const m = meetings.get(Number(recordings[1]));
      if (!m?.files.length) return { status: 404, body: { code: 3301, message: 'This recording does not exist.' } };
      const dat = crypto.randomBytes(10).toString('hex');
      fileTokens.set(dat, m.id);
      return {
        status: 200,
        body: {
          id: m.id,
          recording_files: m.files.map((f) => ({ id: f.id, file_type: f.file_type, download_url: `${base}/rec/download/${f.id}` })),
          ...(url.searchParams.get('include_fields') === 'download_access_token' ? { download_access_token: dat } : {}),
        },
      };
    }
    const one = /^\/v2\/meetings\/(\d+)$/.exec(url.pathname);
    const m = one ? meetings.get(Number(one[1])) : undefined;
    if (one && !m) return { status: 404, body: { code: 3001, message: 'Meeting does not exist.' } };
    if (m && call.method === 'GET') return { status: 200, body: present(m) };
    if (m && call.method === 'PATCH') {
      Object.assign(
        m,
        Object.fromEntries(
          ['topic', 'start_time', 'duration', 'timezone'].filter((k) => call.body?.[k] !== undefined).map((k) => [k, call.body![k]]),
        ),
      );
      return { status: 204 };
    }
    if (m && call.method === 'DELETE') {
      meetings.delete(m.id);
      return { status: 204 };
    }
    return { status: 404, body: { code: 404, message: 'Not found' } };
  }

  const present = (m: StandinMeeting) => {
    const { files: _files, userId, ...rest } = m;
    return { ...rest, uuid: `uuid-${m.id}`, host_id: userId, type: 2 };
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', base);
      const form = (req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
      const call: ZoomCall = {
        method: req.method ?? '',
        path: req.url ?? '',
        body: raw && !form ? JSON.parse(raw) : null,
        authorization: req.headers.authorization ?? '',
        at: Date.now(),
      };
      calls.push(call);
      const send = (a: { status: number; body?: unknown; headers?: Record<string, string> }) =>
        a.body === undefined
          ? res.writeHead(a.status, a.headers).end()
          : res.writeHead(a.status, { 'content-type': 'application/json', ...a.headers }).end(JSON.stringify(a.body));
      if (url.pathname === '/oauth/authorize') {
        // the host approves at once: back to the app with a code for the user the test named
        const code = `code-${crypto.randomBytes(8).toString('hex')}`;
        const redirectUri = url.searchParams.get('redirect_uri') ?? '';
        codes.set(code, { userId: url.searchParams.get('login_as') ?? 'zoom-user-1', redirectUri });
        const back = new URL(redirectUri);
        back.searchParams.set('code', code);
        back.searchParams.set('state', url.searchParams.get('state') ?? '');
        return res.writeHead(302, { location: back.toString() }).end();
      }
      if (url.pathname === '/oauth/token' && call.method === 'POST') return send(token(new URLSearchParams(raw), call.authorization));
      const file = /^\/rec\/download\/(.+)$/.exec(url.pathname);
      if (file) {
        const holder = [...meetings.values()].find((m) => m.files.some((f) => f.id === file[1]));
        const f = holder?.files.find((x) => x.id === file[1]);
        const dat = url.searchParams.get('access_token');
        const allowed = (dat && fileTokens.get(dat) === holder?.id) || accessTokens.has(call.authorization.replace(/^Bearer /, ''));
        if (!f) return send({ status: 404, body: { code: 3301, message: 'File does not exist.' } });
        if (!allowed) return send({ status: 401, body: { code: 124, message: 'Invalid access token.' } });
        return res.writeHead(200, { 'content-type': f.file_extension === 'VTT' ? 'text/vtt' : 'video/mp4' }).end(f.content);
      }
      if (url.pathname.startsWith('/v2/')) {
        const answer = api(call, url);
        if (state.dropNextCreate && call.method === 'POST' && answer.status === 201) {
          state.dropNextCreate = false;
          return req.socket.destroy(); // made, but the answer is lost
        }
        return send(answer);
      }
      send({ status: 404, body: { message: 'Not found' } });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  /** The meeting ended with a cloud recording (and, with a VTT, its audio transcript): the two events' bodies. */
  function endMeeting(id: number, input: { vtt?: string; durationMinutes?: number }) {
    const m = meetings.get(id)!;
    const rec = { id: `rec-${id}-mp4`, file_type: 'MP4', file_extension: 'MP4', content: 'not really a video' };
    m.files.push(rec);
    if (input.vtt !== undefined) m.files.push({ id: `rec-${id}-vtt`, file_type: 'TRANSCRIPT', file_extension: 'VTT', content: input.vtt });
    const object = (files: StandinMeeting['files']) => ({
      id: m.id,
      uuid: `uuid-${m.id}`,
      host_id: m.userId,
      topic: m.topic,
      start_time: m.start_time,
      duration: input.durationMinutes ?? m.duration,
      recording_files: files.map((f) => ({
        id: f.id,
        meeting_id: `uuid-${m.id}`,
        file_type: f.file_type,
        file_extension: f.file_extension,
        status: 'completed',
        download_url: `${base}/rec/download/${f.id}`,
        play_url: `${base}/rec/play/${f.id}`,
        recording_type: f.file_type === 'TRANSCRIPT' ? 'audio_transcript' : 'shared_screen_with_speaker_view',
      })),
    });
    const event = (name: string, files: StandinMeeting['files']) => ({
      event: name,
      event_ts: Date.now(),
      payload: { account_id: opts.accountId, object: object(files) },
      download_token: crypto.randomBytes(16).toString('hex'),
    });
    return {
      completed: event('recording.completed', [rec]),
      transcript: event(
        'recording.transcript_completed',
        m.files.filter((f) => f.file_type === 'TRANSCRIPT'),
      ),
    };
  }

  /** POST an event to the app as Zoom does: raw JSON body, x-zm-request-timestamp, x-zm-signature. */
  async function deliver(url: string, body: unknown, o: { timestamp?: number; secret?: string } = {}) {
    const raw = JSON.stringify(body);
    const ts = String(o.timestamp ?? Math.floor(Date.now() / 1000));
    const sig = crypto
      .createHmac('sha256', o.secret ?? opts.secretToken)
      .update(`v0:${ts}:${raw}`)
      .digest('hex');
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-zm-request-timestamp': ts, 'x-zm-signature': `v0=${sig}` },
      body: raw,
    });
    return { status: res.status, body: (await res.json().catch(() => null)) as any };
  }

  return {
    url: base,
    apiUrl: `${base}/v2`,
    calls,
    meetings,
    refreshTokens,
    script,
    state,
    endMeeting,
    deliver,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
