import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string;
  parsed: ParsedMail;
  raw: string;
}

/**
 * A real SMTP server on 127.0.0.1. `beforeAccept` runs after the whole message arrived and
 * before the 250 reply (the crash test kills the worker there).
 */
export async function startSmtp(opts: { beforeAccept?: (m: ReceivedMail) => Promise<void> } = {}) {
  const messages: ReceivedMail[] = [];
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', async () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const m = { to: session.envelope.rcptTo.map((r) => r.address).join(','), parsed: await simpleParser(raw), raw };
        messages.push(m);
        waiters.splice(0).forEach((w) => w());
        try {
          await opts.beforeAccept?.(m);
        } finally {
          callback();
        }
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    /** Resolve once at least `n` messages arrived. */
    async waitFor(n: number, timeoutMs = 30_000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (messages.length < n) {
        if (Date.now() > deadline) throw new Error(`expected ${n} emails, got ${messages.length}`);
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 200);
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
