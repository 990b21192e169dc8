import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createActivities } from '../../activities';
import { buildWorkerDeps } from '../../activities/deps';
import { createMailer } from '../../core/mailer';
import { createSmsSender } from '../../core/sms';
import { useRadicale, type Radicale } from '../helpers/radicale';
import { useApiWorld, type ApiWorld } from '../helpers/world';

/**
 * A suite's calendar world: database, Temporal test server with a worker running the real calendar
 * sync workflow and every activity, the API, a Radicale (user alice), and a team whose owner is the host.
 * Everything is driven through the public API; the sync runs in the worker as in production.
 */
export interface CalendarWorld extends ApiWorld {
  readonly radicale: Radicale;
  /** POST a connection as the owner's session; returns its id (the first sync is under way). */
  connect(body: Record<string, unknown>): Promise<string>;
  /** Waits until a sync that finished after `since` shows (status ok or error); returns the connection. */
  waitForSync(id: string, since: number): Promise<any>;
  /** POST …/sync, then wait for that sync. */
  syncNow(id: string): Promise<any>;
}

export const RADICALE_USER = 'alice';
export const RADICALE_PASSWORD = 'alice-app-password';

export function useCalendarWorld(opts: { env?: Record<string, string> } = {}): CalendarWorld {
  const radicale = useRadicale({ users: { [RADICALE_USER]: RADICALE_PASSWORD } });
  const w = useApiWorld<CalendarWorld>({
    temporal: 'time-skipping',
    env: opts.env,
    // Every activity (the booking workflows that bookings start run too), mail and SMS to files.
    worker: (world) =>
      createActivities(
        buildWorkerDeps(world.app.config, world.tdb.db, world.app.deps.outbox, {
          mailer: createMailer({ ...world.app.config, SMTP_URL: undefined }),
          sms: createSmsSender({ ...world.app.config, TWILIO_ACCOUNT_SID: undefined }),
        }),
      ),
  });
  Object.defineProperty(w, 'radicale', { get: () => radicale.server });
  w.connect = async (body) => {
    const res = await w.session.post('/api/v1/calendar-connections', body);
    if (res.status !== 201) throw new Error(`connect: ${res.status} ${res.text}`);
    return res.body.data.id as string;
  };
  w.waitForSync = async (id, since) => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const res = await w.api.get(`/api/v1/calendar-connections/${id}`);
      const c = res.body.data;
      const last = Math.max(Date.parse(c?.last_synced_at ?? '') || 0, Date.parse(c?.last_error_at ?? '') || 0);
      if (c && c.status !== 'syncing' && last >= since) return c;
      if (Date.now() > deadline) throw new Error(`no sync of ${id} finished after ${new Date(since).toISOString()}: ${res.text}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  w.syncNow = async (id) => {
    const since = Date.now();
    const res = await w.session.post(`/api/v1/calendar-connections/${id}/sync`);
    if (res.status !== 202) throw new Error(`sync: ${res.status} ${res.text}`);
    return w.waitForSync(id, since);
  };
  return w;
}

/** A local HTTP server whose answers the test sets; it counts the requests and the 304s it sent. */
export interface FeedServer {
  url: string;
  requests: Array<{ path: string; headers: http.IncomingHttpHeaders }>;
  notModified: number;
  /** What GET answers next (ETag from the body's hash when not given). */
  serve(body: string | Buffer, opts?: { contentType?: string; status?: number }): void;
  close(): Promise<void>;
}

export async function startFeedServer(): Promise<FeedServer> {
  let body: Buffer = Buffer.from('');
  let contentType = 'text/calendar; charset=utf-8';
  let status = 200;
  let etag = '"0"';
  const server = http.createServer((req, res) => {
    feed.requests.push({ path: req.url ?? '', headers: req.headers });
    if (status === 200 && req.headers['if-none-match'] === etag) {
      feed.notModified++;
      res.writeHead(304, { etag });
      return res.end();
    }
    res.writeHead(status, { 'content-type': contentType, etag, 'content-length': String(body.length) });
    res.end(body);
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const feed: FeedServer = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: [],
    notModified: 0,
    serve(b, o = {}) {
      body = Buffer.isBuffer(b) ? b : Buffer.from(b);
      contentType = o.contentType ?? 'text/calendar; charset=utf-8';
      status = o.status ?? 200;
      etag = `"${createHash('sha1').update(body).digest('hex')}"`;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return feed;
}

/** An iCalendar object with the given VEVENT lines (CRLF, VERSION and PRODID added). */
export function ics(...events: string[][]): string {
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//fss tests//EN',
    ...events.flatMap((e) => ['BEGIN:VEVENT', ...e, 'END:VEVENT']),
    'END:VCALENDAR',
    '',
  ].join('\r\n');
}

/** UTC basic format for DTSTART/DTEND: 20300105T100000Z. */
export const utc = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
