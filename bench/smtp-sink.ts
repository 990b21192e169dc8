import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface SmtpSink {
  /** smtp:// URL with a pooled transport (what the bench's API and worker processes send to). */
  url: string;
  /** Every message accepted, in order: when, and its first recipient. */
  arrivals: Array<{ at: number; to: string }>;
  /** Messages per recipient, to count the ones that arrived more than once. */
  byRecipient: Map<string, number>;
  close(): Promise<void>;
}

/**
 * The benches' SMTP server: counts messages (no parsing) and stamps each arrival with its
 * recipient. Processes started with NODE_ENV=production refuse to run without SMTP_URL, so the
 * harness starts one per bench environment and points every process at it.
 */
export async function startSmtpSink(): Promise<SmtpSink> {
  const arrivals: SmtpSink['arrivals'] = [];
  const byRecipient = new Map<string, number>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    maxClients: 400,
    closeTimeout: 1000,
    onData(stream, session, cb) {
      stream.on('data', () => undefined);
      stream.on('end', () => {
        const to = session.envelope.rcptTo[0]?.address ?? '';
        arrivals.push({ at: Date.now(), to });
        byRecipient.set(to, (byRecipient.get(to) ?? 0) + 1);
        cb();
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}/?pool=true&maxConnections=20&maxMessages=100000`,
    arrivals,
    byRecipient,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
