import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** The parts of a parsed message the tests read. */
export interface Mail {
  headers: Map<string, unknown>;
  from?: { text: string };
  to?: { text: string };
  subject?: string;
  text?: string;
  html?: string | false;
  attachments: Array<{ contentType: string; content: Buffer; filename?: string }>;
}
const parse = simpleParser as unknown as (source: NodeJS.ReadableStream | Buffer) => Promise<Mail>;

export interface SmtpSink {
  url: string;
  messages: Mail[];
  close(): Promise<void>;
}

/** A real SMTP server (smtp-server) on 127.0.0.1 that keeps every message, parsed with mailparser. */
export async function startSmtp(): Promise<SmtpSink> {
  const messages: Mail[] = [];
  const server = new SMTPServer({
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      parse(stream)
        .then((m) => {
          messages.push(m);
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return { url: `smtp://127.0.0.1:${port}`, messages, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Wait (up to a generous deadline) until `check` holds: polling for an outcome, not a timed assertion. */
export async function eventually<T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  what: string,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
