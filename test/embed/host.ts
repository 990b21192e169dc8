import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A third-party website on its own port (so a different origin from the service): it serves
 * host pages that load {base_url}/embed.js, under a strict CSP of its own (no inline styles, so
 * the script must style through the CSSOM), and records the embed's DOM events and messages.
 */
export interface HostSite {
  origin: string;
  /** Serve `markup` (the embed elements) at `path`; returns the page URL. */
  page(path: string, markup: string): string;
  close(): Promise<void>;
}

const EVENTS = ['form:ready', 'form:submitted', 'form:closed', 'booking:ready', 'booking:scheduled', 'booking:closed'];

export async function startHostSite(serviceBase: string): Promise<HostSite> {
  const pages = new Map<string, string>();
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const markup = pages.get(path);
    if (markup === undefined) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': `default-src 'none'; script-src 'nonce-host' ${serviceBase}; frame-src ${serviceBase}; style-src 'self'`,
    });
    res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host site</title></head><body>
<h1>A partner's website</h1>
<p><a href="#top" id="before">A link before the embed</a></p>
${markup}
<p>Text after the embed.</p>
<script nonce="host">
window.fssEvents = []; window.fssMessages = [];
${JSON.stringify(EVENTS)}.forEach(function (t) {
  document.addEventListener(t, function (e) { window.fssEvents.push({ type: t, target: e.target.id, detail: e.detail }); });
});
window.addEventListener('message', function (e) { window.fssMessages.push({ origin: e.origin, data: e.data }); });
</script>
<script nonce="host" src="${serviceBase}/embed.js"></script>
</body></html>`);
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    page(path, markup) {
      pages.set(path, markup);
      return `${origin}${path}`;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
