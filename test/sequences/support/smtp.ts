import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string;
  /** The envelope sender (MAIL FROM). */
  from: string;
  parsed: ParsedMail;
  raw: string;
}

/** A reply code to refuse a recipient with at RCPT (e.g. 550, 451), or null to accept it. */
export type RcptReply = (address: string) => { code: number; message: string } | null;

/** The text after `250 ` in the answer to DATA (e.g. SendGrid's `Ok: queued as <X-Message-Id>`). */
export type DataReply = (m: ReceivedMail) => string;

/**
 * A real SMTP server on 127.0.0.1. `beforeAccept` runs after the whole message arrived and
 * before the 250 reply (the crash test kills the worker there).
 */
export async function startSmtp(
  opts: {
    beforeAccept?: (m: ReceivedMail) => Promise<void>;
    rcptReply?: RcptReply;
    dataReply?: DataReply;
  } = {},
) {
  const messages: ReceivedMail[] = [];
  /** Every RCPT TO seen, with the code answered. */
  const rcpts: Array<{ address: string; from: string; code: number }> = [];
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, session, callback) {
      const reply = opts.rcptReply?.(address.address) ?? null;
      const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
      rcpts.push({ address: address.address, from, code: reply?.code ?? 250 });
      if (!reply) return callback();
      callback(Object.assign(new Error(reply.message), { responseCode: reply.code }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', async () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        const m = { to: session.envelope.rcptTo.map((r) => r.address).join(','), from, parsed: await simpleParser(raw), raw };
        messages.push(m);
        waiters.splice(0).forEach((w) => w());
        try {
          await opts.beforeAccept?.(m);
        } finally {
          callback(null, opts.dataReply?.(m));
        }
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    rcpts,
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
