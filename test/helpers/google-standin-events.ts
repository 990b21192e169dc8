import crypto from 'node:crypto';
import type http from 'node:http';

/**
 * The stand-in's event writes (test/helpers/google-standin.ts), in the shapes of Google's reference
 * pages events.insert, events.patch, events.get and events.delete, and the guide "Add video and
 * phone conferences to events" (docs/calendars.md "Pages followed"). Not Google: a test double.
 * - insert with a client-chosen `id` (base32hex a–v 0–9, 5–1024 long, else 400 `invalid`); an id
 *   that exists, also a deleted (cancelled) event's, answers 409 `duplicate`;
 * - patch merges the body; 404 unknown; a deleted (cancelled) event answers 403 `forbidden`, as Google
 *   does for an event deleted in its calendar (googleapis/google-api-ruby-client issue 1811);
 * - delete marks it `cancelled` (it stays for incremental syncs); deleting it again answers 410
 *   `deleted`; 404 unknown;
 * - `conferenceDataVersion=1` with `conferenceData.createRequest` (type hangoutsMeet) makes a Meet
 *   conference once per event: `hangoutLink` and a `video` entry point; without the query parameter
 *   conference data is ignored, as Google does;
 * - every event has an `htmlLink` (`{base}/calendar/event?eid=…`), and an iCalUID `<id>@google.com`;
 * - fault `dropInserts`: that many inserts are stored, then the connection is dropped before any
 *   answer (a timeout as the client sees it);
 * - fault `failInserts`: the next inserts answer these (a 429 with Retry-After, a 403
 *   `rateLimitExceeded`, a 401…) instead, one each, storing nothing;
 * - `hold` (`insertHold`): while on, inserts are parked unanswered until `release()`; `maxInFlight`
 *   is the most parked at once (a client that gives up leaves the count).
 */
export interface WritableEvent {
  id: string;
  status?: 'confirmed' | 'tentative' | 'cancelled';
  start: { dateTime?: string; date?: string; timeZone?: string };
  end: { dateTime?: string; date?: string; timeZone?: string };
  transparency?: 'opaque' | 'transparent';
  attendees?: Array<{ email: string; self?: boolean; responseStatus: string; displayName?: string }>;
  summary?: string;
  description?: string;
  location?: string;
  htmlLink?: string;
  hangoutLink?: string;
  conferenceData?: unknown;
}

/** Inserts parked unanswered while `on`, counted; `release()` answers them and stops parking. */
export function insertHold() {
  const parked = new Set<() => void>();
  const hold = {
    on: false,
    maxInFlight: 0,
    get inFlight() {
      return parked.size;
    },
    park(res: http.ServerResponse, answer: () => void) {
      parked.add(answer);
      res.on('close', () => parked.delete(answer)); // answered, or the client gave up
      hold.maxInFlight = Math.max(hold.maxInFlight, parked.size);
    },
    release() {
      hold.on = false;
      for (const answer of [...parked]) answer();
    },
  };
  return hold;
}

/** An answer a test scripts for a request (status, headers, body; the body defaults to Google's error shape). */
export interface ScriptedAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

interface Ctx {
  base: string;
  faults: { dropInserts: number; failInserts: ScriptedAnswer[] };
  hold: ReturnType<typeof insertHold>;
  calendar: { id: string; events: Map<string, WritableEvent & { seq: number }> };
  nextSeq: () => number;
  send: (res: http.ServerResponse, status: number, body?: unknown, headers?: Record<string, string>) => void;
  apiError: (code: number, reason: string, message: string) => unknown;
  eventOut: (e: WritableEvent & { seq: number }) => unknown;
  changed: () => void;
}

const ID = /^[a-v0-9]{5,1024}$/;
const WRITABLE = ['summary', 'description', 'location', 'start', 'end', 'status', 'attendees', 'transparency'] as const;

function conference(eventId: string, body: any, withConference: boolean, existing: WritableEvent | undefined) {
  if (existing?.hangoutLink) return { hangoutLink: existing.hangoutLink, conferenceData: existing.conferenceData };
  const req = body?.conferenceData?.createRequest;
  if (!withConference || !req || req.conferenceSolutionKey?.type !== 'hangoutsMeet') return {};
  const code = crypto.createHash('sha256').update(`${eventId}/${req.requestId}`).digest('hex');
  const meet = `https://meet.google.com/${code.slice(0, 3)}-${code.slice(3, 7)}-${code.slice(7, 10)}`;
  return {
    hangoutLink: meet,
    conferenceData: {
      createRequest: { requestId: req.requestId, conferenceSolutionKey: { type: 'hangoutsMeet' }, status: { statusCode: 'success' } },
      entryPoints: [{ entryPointType: 'video', uri: meet, label: meet.replace('https://', '') }],
      conferenceSolution: { key: { type: 'hangoutsMeet' }, name: 'Google Meet' },
      conferenceId: meet.slice(-12),
    },
  };
}

const attendeesOf = (list: any): WritableEvent['attendees'] =>
  Array.isArray(list)
    ? list.map((a: any) => ({
        email: String(a.email),
        ...(a.displayName ? { displayName: String(a.displayName) } : {}),
        responseStatus: 'needsAction',
      }))
    : undefined;

/** Handles a write under `/calendars/{id}/events[/{eventId}]`; answers false when the request is not one. */
export function eventWrite(
  ctx: Ctx,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  input: { eventId: string | null; url: URL; body: any },
): boolean {
  const { calendar: cal, send, apiError } = ctx;
  const { eventId, url, body } = input;
  const withConference = url.searchParams.get('conferenceDataVersion') === '1';
  const pick = (b: any) => {
    const out: Record<string, unknown> = {};
    for (const k of WRITABLE) if (b?.[k] !== undefined) out[k] = k === 'attendees' ? attendeesOf(b[k]) : b[k];
    return out;
  };
  const store = (e: WritableEvent) => {
    const saved = { ...e, seq: ctx.nextSeq() };
    cal.events.set(e.id, saved);
    ctx.changed();
    return saved;
  };
  if (!eventId && req.method === 'POST' && ctx.hold.on) {
    ctx.hold.park(res, () => eventWrite(ctx, req, res, input));
    return true;
  }
  const failed = !eventId && req.method === 'POST' ? ctx.faults.failInserts.shift() : undefined;
  if (failed) return (send(res, failed.status, failed.body ?? apiError(failed.status, 'scripted', 'scripted'), failed.headers), true);
  if (!eventId && req.method === 'POST') {
    const id = String(body?.id ?? crypto.randomBytes(10).toString('hex'));
    if (!ID.test(id)) return (send(res, 400, apiError(400, 'invalid', 'Invalid resource id value.')), true);
    if (cal.events.has(id)) return (send(res, 409, apiError(409, 'duplicate', 'The requested identifier already exists.')), true);
    if (!body?.start || !body?.end) return (send(res, 400, apiError(400, 'required', 'Missing end time.')), true);
    const saved = store({
      id,
      status: 'confirmed',
      ...pick(body),
      htmlLink: `${ctx.base}/calendar/event?eid=${Buffer.from(`${id} ${cal.id}`).toString('base64url')}`,
      ...conference(id, body, withConference, undefined),
    } as WritableEvent);
    if (ctx.faults.dropInserts > 0) {
      ctx.faults.dropInserts--;
      req.socket.destroy(); // stored, but the client never hears of it
      return true;
    }
    return (send(res, 200, ctx.eventOut(saved)), true);
  }
  if (!eventId) return false;
  const e = cal.events.get(eventId);
  if (!e) return (send(res, 404, apiError(404, 'notFound', 'Not Found')), true);
  if (req.method === 'GET') return (send(res, 200, ctx.eventOut(e)), true);
  if (req.method === 'PATCH' || req.method === 'PUT') {
    if (e.status === 'cancelled') return (send(res, 403, apiError(403, 'forbidden', 'Forbidden')), true);
    const { seq: _seq, ...rest } = e;
    const saved = store({ ...rest, ...pick(body), ...conference(e.id, body, withConference, e) } as WritableEvent);
    return (send(res, 200, ctx.eventOut(saved)), true);
  }
  if (req.method === 'DELETE') {
    if (e.status === 'cancelled') return (send(res, 410, apiError(410, 'deleted', 'Resource has been deleted')), true);
    const { seq: _seq, ...rest } = e;
    store({ ...rest, status: 'cancelled' });
    return (send(res, 204), true);
  }
  return false;
}
