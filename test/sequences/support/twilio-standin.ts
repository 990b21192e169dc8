import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TwilioMessage {
  accountSid: string;
  params: Record<string, string>;
  authorization: string;
}

/** A local stand-in for Twilio's REST API: POST /2010-04-01/Accounts/<sid>/Messages.json. */
export async function startTwilioStandin() {
  const messages: TwilioMessage[] = [];
  let n = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const m = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/.exec(req.url ?? '');
      if (req.method !== 'POST' || !m) {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 20404, message: 'not found', status: 404 }));
        return;
      }
      const params = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      messages.push({ accountSid: m[1], params, authorization: req.headers.authorization ?? '' });
      const sid = `SM${String(++n).padStart(32, '0')}`;
      res.writeHead(201, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          sid,
          account_sid: m[1],
          from: params.From,
          to: params.To,
          body: params.Body,
          status: 'queued',
          date_created: new Date().toUTCString(),
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}`, messages, close: () => new Promise<void>((r) => server.close(() => r())) };
}
