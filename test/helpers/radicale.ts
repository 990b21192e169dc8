/**
 * A real CalDAV server for the calendar tests: Radicale (PyPI), installed by `node scripts/bootstrap.js`
 * with `pip install --target` into ${XDG_CACHE_HOME:-~/.cache}/fss-tools/radicale (or the folder env
 * RADICALE_PYTHONPATH names; same lookup as the bootstrap). Each suite starts its own server on a free
 * 127.0.0.1 port, with htpasswd auth (plain passwords) and a temporary storage folder, and stops it in
 * afterAll (`useRadicale()`), or by hand (`startRadicale()`, for the bench).
 *
 * `stop()` then `start()` restarts it on the same port with the same storage: the "calendar is down" tests.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { radicaleDir } from '../../scripts/tool-paths';
import { freePort, portAccepts } from '../../core/ports';

/** Keep in sync with RADICALE_VERSION in scripts/bootstrap.js. */
export const RADICALE_VERSION = '3.9.0';

/** The folder that holds the `radicale` package (given to python3 as PYTHONPATH). */
export { radicaleDir };

function assertInstalled(dir: string): void {
  if (fs.existsSync(path.join(dir, 'radicale', '__main__.py'))) return;
  throw new Error(
    `Radicale is not installed in ${dir}. Run \`node scripts/bootstrap.js\` (it pip-installs radicale==${RADICALE_VERSION} there), ` +
      'or point RADICALE_PYTHONPATH at a folder that holds it.',
  );
}

export interface RadicaleObject {
  href: string;
  etag: string | null;
  data: string;
}

export interface Radicale {
  /** Base URL, e.g. http://127.0.0.1:41234 (no trailing slash). */
  url: string;
  port: number;
  /** username → password of the htpasswd file. */
  users: Record<string, string>;
  storageDir: string;
  /** Start again on the same port with the same storage (after stop()). */
  start(): Promise<void>;
  /** Stop the server (SIGTERM, then SIGKILL after 5 s); storage stays until dispose(). */
  stop(): Promise<void>;
  /** stop() and remove the temporary folder. */
  dispose(): Promise<void>;
  running(): boolean;
  /** The principal URL of a user: `${url}/${user}/`. */
  principalUrl(user: string): string;
  /** MKCALENDAR `${url}/${user}/${name}/`; returns the collection URL (with trailing slash). */
  mkcalendar(user: string, name: string, displayName?: string): Promise<string>;
  /** PUT an iCalendar object (`name` like `abc.ics`) into a collection; returns the new ETag. */
  put(user: string, calendarUrl: string, name: string, ics: string): Promise<string | null>;
  /** DELETE a resource. Returns the status code. */
  remove(user: string, href: string): Promise<number>;
  /** calendar-query REPORT for every VEVENT object of a collection, with etag and data. */
  report(user: string, calendarUrl: string): Promise<RadicaleObject[]>;
  /** Any WebDAV request with the user's basic auth (PROPFIND, REPORT, …). */
  request(user: string, method: string, url: string, init?: { headers?: Record<string, string>; body?: string }): Promise<Response>;
}

function basic(user: string, password: string): string {
  return 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64');
}

function xmlUnescape(s: string): string {
  return s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#13;/g, '\r')
    .replace(/&#(\d+);/g, (_m, d: string) => String.fromCharCode(Number(d)))
    .replace(/&amp;/g, '&');
}

/** Minimal multistatus reader for the REPORT answers of Radicale (namespace prefixes vary: match by local name). */
export function parseMultistatus(xml: string): RadicaleObject[] {
  const out: RadicaleObject[] = [];
  const responses = xml.match(/<(?:[A-Za-z]+:)?response\b[\s\S]*?<\/(?:[A-Za-z]+:)?response>/g) ?? [];
  for (const r of responses) {
    const href = /<(?:[A-Za-z]+:)?href>([\s\S]*?)<\/(?:[A-Za-z]+:)?href>/.exec(r)?.[1];
    const etag = /<(?:[A-Za-z]+:)?getetag>([\s\S]*?)<\/(?:[A-Za-z]+:)?getetag>/.exec(r)?.[1];
    const data = /<(?:[A-Za-z]+:)?calendar-data[^>]*>([\s\S]*?)<\/(?:[A-Za-z]+:)?calendar-data>/.exec(r)?.[1];
    if (!href || data === undefined) continue;
    out.push({ href: xmlUnescape(href.trim()), etag: etag ? xmlUnescape(etag.trim()) : null, data: xmlUnescape(data) });
  }
  return out;
}

const REPORT_ALL_EVENTS = `<?xml version="1.0" encoding="utf-8"?>
<C:calendar-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
  <D:prop><D:getetag/><C:calendar-data/></D:prop>
  <C:filter><C:comp-filter name="VCALENDAR"><C:comp-filter name="VEVENT"/></C:comp-filter></C:filter>
</C:calendar-query>`;

/** Start a Radicale on a free port. `users` defaults to `{ alice: 'alice-password' }`. */
export async function startRadicale(options: { users?: Record<string, string> } = {}): Promise<Radicale> {
  const pythonPath = radicaleDir();
  assertInstalled(pythonPath);
  const users = options.users ?? { alice: 'alice-password' };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fss-radicale-')); // mode 700
  const storageDir = path.join(dir, 'collections');
  const htpasswd = path.join(dir, 'users');
  fs.writeFileSync(
    htpasswd,
    Object.entries(users)
      .map(([u, p]) => `${u}:${p}`)
      .join('\n') + '\n',
  );
  const port = await freePort();
  const configFile = path.join(dir, 'config');
  fs.writeFileSync(
    configFile,
    [
      '[server]',
      `hosts = 127.0.0.1:${port}`,
      'delay_on_error = 0',
      '[auth]',
      'type = htpasswd',
      `htpasswd_filename = ${htpasswd}`,
      'htpasswd_encryption = plain',
      // No delay after a wrong password: the wrong-password tests would wait a second per request.
      'delay = 0',
      '[storage]',
      `filesystem_folder = ${storageDir}`,
      '[rights]',
      'type = owner_only',
      '[web]',
      'type = none',
      '[logging]',
      'level = warning',
      '',
    ].join('\n'),
  );
  const url = `http://127.0.0.1:${port}`;
  let child: ChildProcess | null = null;
  let log = '';
  const killOnExit = () => child?.kill('SIGKILL');

  async function start(): Promise<void> {
    if (child) return;
    log = '';
    const proc = spawn('python3', ['-m', 'radicale', '--config', configFile], {
      env: { ...process.env, PYTHONPATH: pythonPath, PYTHONDONTWRITEBYTECODE: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = proc;
    process.once('exit', killOnExit);
    const keep = (b: Buffer) => {
      log = (log + b.toString()).slice(-8000);
    };
    proc.stdout?.on('data', keep);
    proc.stderr?.on('data', keep);
    let exited: number | null = null;
    proc.once('exit', (code) => {
      exited = code ?? -1;
      if (child === proc) child = null;
    });
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (exited !== null) throw new Error(`Radicale exited with code ${exited} while starting:\n${log}`);
      if (await portAccepts(port)) {
        try {
          const res = await fetch(`${url}/.well-known/caldav`, { method: 'PROPFIND', redirect: 'manual' });
          if (res.status < 500) return;
        } catch {
          /* not ready yet */
        }
      }
      if (Date.now() > deadline) {
        proc.kill('SIGKILL');
        throw new Error(`Radicale did not answer on ${url} within 30 s:\n${log}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async function stop(): Promise<void> {
    const proc = child;
    if (!proc) return;
    child = null;
    process.removeListener('exit', killOnExit);
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => proc.kill('SIGKILL'), 5000);
      proc.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      proc.kill('SIGTERM');
    });
  }

  function password(user: string): string {
    const p = users[user];
    if (p === undefined) throw new Error(`no Radicale user ${user}`);
    return p;
  }

  async function request(
    user: string,
    method: string,
    target: string,
    init: { headers?: Record<string, string>; body?: string } = {},
  ): Promise<Response> {
    return fetch(new URL(target, url), {
      method,
      headers: { Authorization: basic(user, password(user)), ...(init.headers ?? {}) },
      body: init.body,
      redirect: 'manual',
    });
  }

  const server: Radicale = {
    url,
    port,
    users,
    storageDir,
    start,
    stop,
    async dispose() {
      await stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
    running: () => child !== null,
    principalUrl: (user) => `${url}/${user}/`,
    async mkcalendar(user, name, displayName) {
      const target = `${url}/${user}/${name}/`;
      const body = `<?xml version="1.0" encoding="utf-8"?>
<C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
  <D:set><D:prop>
    <D:displayname>${displayName ?? name}</D:displayname>
    <C:supported-calendar-component-set><C:comp name="VEVENT"/></C:supported-calendar-component-set>
  </D:prop></D:set>
</C:mkcalendar>`;
      const res = await request(user, 'MKCALENDAR', target, { headers: { 'Content-Type': 'application/xml; charset=utf-8' }, body });
      if (res.status !== 201) throw new Error(`MKCALENDAR ${target}: ${res.status} ${await res.text()}`);
      return target;
    },
    async put(user, calendarUrl, name, ics) {
      const target = new URL(name, calendarUrl.endsWith('/') ? calendarUrl : calendarUrl + '/').toString();
      const res = await request(user, 'PUT', target, { headers: { 'Content-Type': 'text/calendar; charset=utf-8' }, body: ics });
      if (res.status !== 201 && res.status !== 204) throw new Error(`PUT ${target}: ${res.status} ${await res.text()}`);
      return res.headers.get('etag');
    },
    async remove(user, href) {
      const res = await request(user, 'DELETE', href);
      await res.text();
      return res.status;
    },
    async report(user, calendarUrl) {
      const res = await request(user, 'REPORT', calendarUrl, {
        headers: { Depth: '1', 'Content-Type': 'application/xml; charset=utf-8' },
        body: REPORT_ALL_EVENTS,
      });
      const text = await res.text();
      if (res.status !== 207) throw new Error(`REPORT ${calendarUrl}: ${res.status} ${text}`);
      return parseMultistatus(text);
    },
    request,
  };
  await start();
  return server;
}

/**
 * One Radicale for the suite: started in beforeAll, disposed of in afterAll. Read `.server` inside tests.
 */
export function useRadicale(options: { users?: Record<string, string> } = {}): { readonly server: Radicale } {
  let server: Radicale | null = null;
  beforeAll(async () => {
    server = await startRadicale(options);
  }, 60_000);
  afterAll(async () => {
    await server?.dispose();
  });
  return {
    get server(): Radicale {
      if (!server) throw new Error('Radicale is not started (useRadicale() must be called at describe level)');
      return server;
    },
  };
}
