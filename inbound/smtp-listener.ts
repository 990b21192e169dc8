import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import type { Config } from '../core/config';
import { logger } from '../core/logger';
import type { Db } from '../db/knex';
import { acceptsRecipient } from '../domain/mail-address';
import { transactionWithOutbox } from '../temporal/outbox';
import type { OutboxPort } from '../temporal/outbox-port';
import { inboundEmailWorkflowId } from '../workflows/mail/contract';
import type { ServiceDeps } from '../services/deps';

type ListenerConfig = Pick<
  Config,
  | 'MAIL_BOUNCE_DOMAIN'
  | 'MAIL_REPLY_DOMAIN'
  | 'INBOUND_MAX_BYTES'
  | 'INBOUND_MAX_CONNECTIONS_PER_IP'
  | 'INBOUND_MAX_CONNECTIONS'
  | 'INBOUND_IDLE_TIMEOUT_MS'
  | 'INBOUND_SMTP_HOST'
  | 'INBOUND_SMTP_PORT'
>;

const smtpError = (code: number, message: string) => Object.assign(new Error(message), { responseCode: code });

export interface StoreInboundInput {
  raw: Buffer;
  mailFrom: string;
  recipients: string[];
  remoteIp: string;
}

/** Store a received message, then start its classification workflow, in one transaction (a crash loses nothing). */
export async function storeInbound(deps: Pick<ServiceDeps, 'db' | 'outbox'>, m: StoreInboundInput): Promise<string> {
  return transactionWithOutbox(deps.db, deps.outbox, async (trx, enqueue) => {
    const [row] = await trx('inbound_emails')
      .insert({ mail_from: m.mailFrom, rcpt_to: m.recipients, remote_ip: m.remoteIp, size: m.raw.length, raw: m.raw })
      .returning('id');
    await enqueue({
      workflowType: 'inboundEmailWorkflow',
      workflowId: inboundEmailWorkflowId(row.id),
      args: [{ inboundId: row.id }],
      summary: `Classify inbound email ${row.id} (${m.raw.length} bytes)`, // no sender here: it may be a person (docs/operators.md)
    });
    return row.id as string;
  });
}

/**
 * The inbound SMTP listener: mail for the bounce and reply domains only (every other recipient is
 * refused at RCPT: never an open relay). Its memory stays bounded under abuse: the size limit is
 * announced in EHLO (`SIZE`, RFC 1870), a larger `MAIL FROM … SIZE=` is refused at once, and a
 * `DATA` that grows past it is read to its end but no longer kept (552 then); connections are capped
 * per address and overall (421), and an idle one is closed. A message is answered 250 only once it
 * is stored; a storage failure answers 451 so the sender retries.
 */
export function createInboundListener(deps: { db: Db; outbox: OutboxPort; config: ListenerConfig }) {
  const { config } = deps;
  const domains = { bounce: config.MAIL_BOUNCE_DOMAIN, reply: config.MAIL_REPLY_DOMAIN };
  const perIp = new Map<string, number>();
  let open = 0;
  const counted = new Set<string>();
  const options: SMTPServerOptions = {
    name: config.MAIL_REPLY_DOMAIN,
    banner: 'inbound mail',
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    size: config.INBOUND_MAX_BYTES,
    logger: false,
    socketTimeout: config.INBOUND_IDLE_TIMEOUT_MS,
    disableReverseLookup: true, // a DNS lookup per connection would be one more thing to abuse
    closeTimeout: 1000,
    onConnect(session, callback) {
      const ip = session.remoteAddress;
      const n = (perIp.get(ip) ?? 0) + 1;
      if (open >= config.INBOUND_MAX_CONNECTIONS) {
        logger.warn({ ip, open }, 'inbound SMTP: connection limit reached');
        return callback(smtpError(421, '4.7.0 Too many connections, try again later'));
      }
      if (n > config.INBOUND_MAX_CONNECTIONS_PER_IP) {
        logger.warn({ ip }, 'inbound SMTP: too many connections from one address');
        return callback(smtpError(421, '4.7.0 Too many connections from your address, try again later'));
      }
      perIp.set(ip, n);
      open++;
      counted.add(session.id);
      callback();
    },
    onClose(session) {
      // Only connections that onConnect counted (a refused one is closed too).
      if (!counted.delete(session.id)) return;
      open--;
      const ip = session.remoteAddress;
      const n = (perIp.get(ip) ?? 1) - 1;
      if (n <= 0) perIp.delete(ip);
      else perIp.set(ip, n);
    },
    onRcptTo(address, _session, callback) {
      if (!acceptsRecipient(address.address, domains)) return callback(smtpError(550, '5.7.1 Relaying denied: unknown recipient domain'));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('data', (c: Buffer) => {
        size += c.length;
        // Past the limit the rest is read (SMTP answers after the final dot) but not kept.
        if (size <= config.INBOUND_MAX_BYTES) chunks.push(c);
        else chunks.length = 0;
      });
      stream.on('error', (err) => {
        logger.warn({ err: String(err) }, 'inbound SMTP: stream error');
        callback(smtpError(451, '4.3.0 Error reading the message'));
      });
      stream.on('end', () => {
        if (size > config.INBOUND_MAX_BYTES || (stream as unknown as { sizeExceeded?: boolean }).sizeExceeded) {
          logger.warn({ size, ip: session.remoteAddress }, 'inbound SMTP: message over the size limit refused');
          return callback(smtpError(552, `5.3.4 Message exceeds the size limit of ${config.INBOUND_MAX_BYTES} bytes`));
        }
        const raw = Buffer.concat(chunks);
        storeInbound(deps, {
          raw,
          mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          recipients: session.envelope.rcptTo.map((r) => r.address),
          remoteIp: session.remoteAddress,
        }).then(
          (id) => {
            logger.info({ id, size: raw.length }, 'inbound email stored');
            callback(null, `2.0.0 Stored as ${id}`);
          },
          (err) => {
            logger.error({ err: String(err) }, 'inbound SMTP: could not store the message');
            callback(smtpError(451, '4.3.0 Temporary failure, try again later'));
          },
        );
      });
    },
  };
  const server = new SMTPServer(options);
  server.on('error', (err) => logger.warn({ err: String(err) }, 'inbound SMTP: connection error'));
  return {
    server,
    listen(port = config.INBOUND_SMTP_PORT, host = config.INBOUND_SMTP_HOST): Promise<number> {
      return new Promise((resolve) => server.listen(port, host, () => resolve((server.server.address() as AddressInfo).port)));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
